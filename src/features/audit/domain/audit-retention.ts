/**
 * How long the audit trail is kept (AUDIT_RETENTION_DAYS): the daily retention pass removes
 * every chain's events older than that, keeping each chain verifiable from its anchor (the
 * last event removed, recorded in the head and in a `system` event of the chain).
 */
import type { AuditRepository } from './audit-event';

export class AuditRetention {
  constructor(
    private readonly repository: AuditRepository,
    readonly days: number,
  ) {}

  async prune(asOf: Date): Promise<{ chains: number; events: number }> {
    const cutoff = new Date(asOf.getTime() - this.days * 86_400_000);
    let chains = 0;
    let events = 0;
    for (const chain of await this.repository.chains()) {
      const pruned = await this.repository.prune(chain, cutoff, asOf);
      if (pruned > 0) chains += 1;
      events += pruned;
    }
    return { chains, events };
  }
}

export const AUDIT_RETENTION = Symbol('AuditRetention');
