/**
 * The handlers this installation registered, by hook and by gating action. The catalog
 * endpoint asks it which actions have a handler.
 */
import type { HookBinding } from './hook-handler';

export interface HookHandlerSummary {
  name: string;
  hook: string;
  action: string;
}

export class HookRegistry {
  private readonly byHook = new Map<string, HookBinding[]>();
  private readonly byAction = new Map<string, HookHandlerSummary[]>();

  constructor(readonly bindings: readonly HookBinding[]) {
    const names = new Set<string>();
    for (const binding of bindings) {
      if (names.has(binding.name)) throw new Error(`Two hook handlers are named "${binding.name}"`);
      names.add(binding.name);
      this.byHook.set(binding.hook, [...(this.byHook.get(binding.hook) ?? []), binding]);
      this.byAction.set(binding.action, [...(this.byAction.get(binding.action) ?? []), { name: binding.name, hook: binding.hook, action: binding.action }]);
    }
  }

  forHook(hook: string): readonly HookBinding[] {
    return this.byHook.get(hook) ?? [];
  }

  hooks(): string[] {
    return [...this.byHook.keys()];
  }

  /** Handlers gated by this action (empty: this installation has none). */
  handlersFor(actionKey: string): readonly HookHandlerSummary[] {
    return this.byAction.get(actionKey) ?? [];
  }

  handledActions(): ReadonlySet<string> {
    return new Set(this.byAction.keys());
  }
}

export const HOOK_REGISTRY = Symbol('HookRegistry');
