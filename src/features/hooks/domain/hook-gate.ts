/**
 * The license gate in front of every hook handler (and the reminder processor's
 * re-check): may this organization's call for this action run? Answered from the
 * EntitlementCache: synchronously when the answer is cached (the common case), with one
 * read of the source otherwise. Every decision and cache lookup is counted (GateMetrics).
 */
import { inject, injectable } from 'tsyringe';
import { EntitlementCache } from '../../licensing/domain/entitlement-cache';
import { GATE_METRICS, type GateMetrics } from '../../../kernel/metrics';

@injectable()
export class HookGate {
  constructor(
    @inject(EntitlementCache) private readonly cache: EntitlementCache,
    @inject(GATE_METRICS) private readonly metrics: GateMetrics,
  ) {}

  /** true: the handler may run. A boolean when cached, else a promise of one. */
  allows(organizationId: string, actionKey: string): boolean | Promise<boolean> {
    const cached = this.cache.peek(organizationId, actionKey);
    if (cached !== undefined) {
      this.metrics.recordCacheHit(true);
      this.metrics.recordGateCheck(actionKey, cached);
      return cached;
    }
    this.metrics.recordCacheHit(false);
    return this.cache.load(organizationId, actionKey).then((active) => {
      this.metrics.recordGateCheck(actionKey, active);
      return active;
    });
  }
}
