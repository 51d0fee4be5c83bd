/** The standalone host's hook bus: in-process listeners, and a short log for inspection. */
import type { Disposer } from '../../kernel/disposer';
import type { Logger } from '../../kernel/logger';
import type { HookBus, HookEvent, HookListener } from '../../host/contract';

export class InProcessHookBus implements HookBus {
  private readonly listeners = new Map<string, Set<HookListener>>();
  /** The most recent events, newest last; the demo pages and tests read it. */
  readonly recent: (HookEvent & { at: Date })[] = [];

  constructor(private readonly logger: Logger) {}

  on(hook: string, listener: HookListener): Disposer {
    const set = this.listeners.get(hook) ?? new Set();
    set.add(listener);
    this.listeners.set(hook, set);
    return () => void set.delete(listener);
  }

  async emit(hook: string, organizationId: string, payload: object): Promise<void> {
    const event: HookEvent = { hook, organizationId, payload: payload as Record<string, unknown> };
    this.recent.push({ ...event, at: new Date() });
    if (this.recent.length > 1000) this.recent.splice(0, this.recent.length - 1000);
    for (const listener of [...(this.listeners.get(hook) ?? []), ...(this.listeners.get('*') ?? [])]) {
      try {
        await listener(event);
      } catch (error) {
        this.logger.error({ hook, organizationId, err: (error as Error).message }, 'hook listener failed');
      }
    }
  }
}
