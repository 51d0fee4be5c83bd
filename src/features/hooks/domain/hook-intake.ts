/**
 * The two ways a host's hook reaches the gated handlers: emitted on the hook bus it handed
 * to `activate` (the plugin listens), or called with `fireHook` (which answers what ran).
 * A host may do both for one event, e.g. emit it for every listener and call fireHook for
 * the result; that must run the handlers once. So a firing through one way is paired with
 * an identical one (same hook, organization and payload) through the other way within
 * PAIRING_WINDOW_MS: the second shares the first's dispatch. Repeated firings through the
 * same way always run again (a host re-fires after buying a license, handlers are idempotent).
 */
import type { Logger } from '../../../kernel/logger';
import type { HookDispatch } from './hook-dispatcher';

export type HookSource = 'bus' | 'call';

export const PAIRING_WINDOW_MS = 10_000;

interface Pending {
  source: HookSource;
  dispatch: Promise<HookDispatch>;
  expiresAt: number;
}

/** A stable text for a JSON payload: keys sorted at every depth. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export class HookIntake {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly dispatch: (hook: string, organizationId: string, payload: object) => Promise<HookDispatch>,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  fire(source: HookSource, hook: string, organizationId: string, payload: object): Promise<HookDispatch> {
    const now = this.now();
    // Entries are kept in the order they expire (re-set keys are re-inserted), so pruning stops at the first live one.
    for (const [key, entry] of this.pending) {
      if (entry.expiresAt > now) break;
      this.pending.delete(key);
    }
    const key = `${hook}\u0000${organizationId}\u0000${canonical(payload ?? {})}`;
    const partner = this.pending.get(key);
    if (partner && partner.source !== source) {
      // The same event through the other way: one dispatch for both.
      this.pending.delete(key);
      this.logger.debug({ hook, organizationId, source }, 'hook already fired through the other way; sharing its result');
      return partner.dispatch;
    }
    const dispatch = this.dispatch(hook, organizationId, payload);
    this.pending.delete(key);
    this.pending.set(key, { source, dispatch, expiresAt: now + PAIRING_WINDOW_MS });
    return dispatch;
  }
}
