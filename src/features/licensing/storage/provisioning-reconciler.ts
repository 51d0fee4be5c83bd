/**
 * Licenses still `provisioning` (their job was lost, or gave up while the database or a
 * provisioner was unreachable), and settled licenses whose subscription is still
 * `provisioning` (the follow-up was cut off): their `provision` job runs (again); on a
 * settled license it only repeats the follow-ups, which settles the subscription.
 */
import { inject, injectable } from 'tsyringe';
import type { OutboxMessage } from '../../../kernel/outbox';
import { provisionMessage } from '../domain/provisioning-messages';
import type { Database } from '../../../platform/database/database';
import { DATABASE } from '../../../platform/database/tokens';
import type { Reconciler } from '../../operations/domain/reconciler';

@injectable()
export class LicenseReconciler implements Reconciler {
  readonly name = 'licenses';

  constructor(@inject(DATABASE) private readonly db: Database) {}

  async findStuck(olderThan: Date, limit: number): Promise<OutboxMessage[]> {
    const provisioning = await this.db('hi_licenses')
      .select('id')
      .where('status', 'provisioning')
      .where('created_at', '<', olderThan)
      .orderBy('created_at')
      .limit(limit);
    const unsettledParents = await this.db('hi_licenses as l')
      .join('hi_subscriptions as s', 's.id', 'l.subscription_id')
      .select('l.id')
      .where('s.status', 'provisioning')
      .where('s.created_at', '<', olderThan)
      .whereIn('l.status', ['active', 'failed'])
      .limit(limit);
    const ids = new Set([...provisioning, ...unsettledParents].map((row: { id: string }) => row.id));
    return [...ids].slice(0, limit).map(provisionMessage);
  }
}
