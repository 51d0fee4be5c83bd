/**
 * Metrics ports the domain may report through, without knowing Prometheus. The
 * composition root registers one implementation per activation (src/platform/observability/).
 */

/** License gating: a route guard, a hook gate or a processor re-check, and the entitlement cache behind them. */
export interface GateMetrics {
  /** One gate decision for an action key: allowed (the handler runs) or skipped (no active license). */
  recordGateCheck(action: string, allowed: boolean): void;
  /** One entitlement cache lookup: hit (answered from the cache) or miss (read from storage). */
  recordCacheHit(hit: boolean): void;
}

export const GATE_METRICS = Symbol('GateMetrics');
