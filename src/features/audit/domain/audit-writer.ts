/**
 * The audit trail's write path. A call's event is one durable INSERT (`record`, no lock);
 * a per-chain writer then moves the chain's pending events into it in batches: while one
 * batch holds the chain's head lock, the events that arrive meanwhile wait and go together
 * in the next (one lock, one multi-row insert per batch instead of a locked transaction per
 * call). Nothing is lost when the process dies: its pending rows stay, and the sweep (every
 * process, on a timer) chains them.
 */
import type { Logger } from '../../../kernel/logger';
import { DEPLOYMENT_CHAIN, type AuditEventInput, type AuditRepository } from './audit-event';

const BATCH = 500;

export class AuditWriter {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();

  constructor(
    private readonly repository: AuditRepository,
    private readonly logger: Logger,
  ) {}

  /** Resolves once the event is durable (not yet chained). */
  async record(event: AuditEventInput): Promise<void> {
    await this.repository.record(event);
    this.chain(event.organizationId ?? DEPLOYMENT_CHAIN);
  }

  /** Chains the pending events of every chain recorded before `before` (those a dead process left). */
  async sweep(before: Date): Promise<void> {
    for (const chain of await this.repository.pendingChains(before)) this.chain(chain);
    await this.idle();
  }

  /** Resolves when no batch is being written. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }

  private chain(chain: string): void {
    if (this.running.has(chain)) {
      this.again.add(chain);
      return;
    }
    const run = (async () => {
      do {
        this.again.delete(chain);
        while ((await this.repository.chainPending(chain, BATCH)) === BATCH);
      } while (this.again.has(chain));
    })()
      .catch((error: Error) => this.logger.error({ chain, err: error.message }, 'could not chain audit events (the sweep retries)'))
      .finally(() => this.running.delete(chain));
    this.running.set(chain, run);
  }
}

export const AUDIT_WRITER = Symbol('AuditWriter');
