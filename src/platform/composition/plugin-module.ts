/**
 * A feature area's share of the composition root: its container registrations, its
 * routers, its job processors, its hook handlers and its background services. The
 * plugin's `activate` runs every module; nothing else knows concrete classes.
 */
import type { DependencyContainer } from 'tsyringe';
import type { Config } from '../../kernel/config';
import type { JobProcessor } from '../../kernel/job-queue';
import type { Disposer } from '../../kernel/disposer';
import type { Logger } from '../../kernel/logger';
import type { PluginHost } from '../../host/contract';
import type { ApiRouter } from '../http/route';
import type { RouterKit } from '../http/router-kit';

export type { RouterKit } from '../http/router-kit';
import type { Manifest } from '../manifest/manifest';

export interface CompositionContext {
  config: Config;
  logger: Logger;
  host: PluginHost;
  manifest: Manifest;
}

export interface RouterFactory {
  /** Must match a router `name` in plugin.manifest.json. */
  name: string;
  create(container: DependencyContainer, kit: RouterKit): ApiRouter;
}

export interface HookHandler {
  /** May report what it did (ids, times): fireHook passes it back in `outcomes[].result`. */
  handle(organizationId: string, payload: Record<string, unknown>): Promise<void | Record<string, unknown>>;
}

export interface HookHandlerRegistration {
  /** Must match a hook `name` in plugin.manifest.json. */
  name: string;
  hook: string;
  /** The action key whose active license gates this handler. */
  action: string;
  /** Connector kinds its steps go through (see HookHandlerDeclaration.steps). */
  steps?: readonly string[];
  resolve(container: DependencyContainer): HookHandler;
}

export interface PluginModule {
  name: string;
  register(container: DependencyContainer, context: CompositionContext): void;
  routers?: RouterFactory[];
  processors?(container: DependencyContainer): JobProcessor[];
  hooks?: HookHandlerRegistration[];
  /**
   * Catalog actions this module performs itself, through its own API or jobs rather than a
   * hook handler (e.g. `['sms.two_factor_auth']` for the verification API): they count as
   * runnable, so they can be sold. Gate the work on the action's license (ENTITLEMENTS).
   */
  builtInActions?: readonly string[];
  /**
   * The connector kinds a built-in action cannot run without (e.g. `{ 'scheduling.shift_scheduling': ['email'] }`):
   * like a hook handler's `steps`, a license bought while one resolves for nothing waits in requires_connection.
   */
  builtInActionSteps?: Readonly<Record<string, readonly string[]>>;
  /** Background services of the API role (relays, subscribers); returns their disposer. */
  start?(container: DependencyContainer, context: CompositionContext): Promise<Disposer | void>;
}
