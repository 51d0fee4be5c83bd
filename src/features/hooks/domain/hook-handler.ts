/**
 * How a hook handler is declared: one decorator on the class.
 *
 *   @HookHandlerFor({ name: 'interview-reminder', hook: 'interview.scheduled', action: 'notifications.interview_reminder' })
 *   export class InterviewReminderHandler implements GatedHookHandler { constructor(@inject(X) x: X) {} async handle(org, payload) {…} }
 *
 * The decorator makes the class injectable and records its declaration; the hooks module
 * lists the classes, and `hookRegistrationOf` turns each into the registration the plugin
 * checks against plugin.manifest.json and hands to the dispatcher. A handler never checks
 * the license itself: the dispatcher's gate does that before `handle` is called.
 */
import { injectable } from 'tsyringe';
import type { z } from 'zod';
import { DomainError } from '../../../kernel/errors';

export interface HookHandlerDeclaration {
  /** Unique handler name; also its name in plugin.manifest.json's `hooks`. */
  name: string;
  /** The host hook it handles, e.g. `interview.scheduled`. */
  hook: string;
  /** The catalog action key whose active license gates it. */
  action: string;
  description?: string;
}

/** What a handler reports back to the caller of fireHook (ids it created, times it chose). */
export type HookHandlerReport = Record<string, unknown>;

export interface GatedHookHandler {
  /**
   * Runs for a licensed organization. Refuse input by throwing a DomainError (see
   * `parsePayload`): the dispatcher reports it as skipped with the reason, never a crash.
   */
  handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport | void>;
}

type HandlerClass = new (...args: any[]) => GatedHookHandler;

const declarations = new Map<HandlerClass, HookHandlerDeclaration>();

export function HookHandlerFor(declaration: HookHandlerDeclaration) {
  return <T extends HandlerClass>(target: T): T => {
    injectable()(target);
    declarations.set(target, Object.freeze({ ...declaration }));
    return target;
  };
}

export function declarationOf(handler: HandlerClass): HookHandlerDeclaration {
  const declaration = declarations.get(handler);
  if (!declaration) throw new Error(`${handler.name} is not decorated with @HookHandlerFor`);
  return declaration;
}

/** A declared handler and how to get its instance (the composition root supplies `resolve`). */
export interface HookBinding extends HookHandlerDeclaration {
  handler(): GatedHookHandler;
}

/** Validates a hook payload; a bad one is refused as `invalid_payload` naming the field. */
export function parsePayload<S extends z.ZodType>(schema: S, payload: unknown): z.infer<S> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const param = issue.path.length > 0 ? issue.path.join('.') : undefined;
  throw new DomainError('invalid', 'invalid_payload', `${param ?? 'payload'}: ${issue.message}`, param === undefined ? {} : { param });
}
