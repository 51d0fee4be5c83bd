/** Applications never delivered to the host pipeline: their `deliver` job runs (again). */
import { inject, injectable } from 'tsyringe';
import { pipelineDeliveryMessage } from '../domain/pipeline-delivery-message';
import type { OutboxMessage } from '../../../kernel/outbox';
import type { Database } from '../../../platform/database/database';
import { DATABASE } from '../../../platform/database/tokens';
import type { Reconciler } from '../../operations/domain/reconciler';

@injectable()
export class ApplicationDeliveryReconciler implements Reconciler {
  readonly name = 'applications';

  constructor(@inject(DATABASE) private readonly db: Database) {}

  async findStuck(olderThan: Date, limit: number): Promise<OutboxMessage[]> {
    const rows: { id: string }[] = await this.db('hi_profile_applications')
      .select('id')
      .whereNull('delivered_at')
      .where('created_at', '<', olderThan)
      .orderBy('created_at')
      .limit(limit);
    return rows.map((row) => pipelineDeliveryMessage(row.id));
  }
}
