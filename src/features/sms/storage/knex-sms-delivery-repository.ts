/**
 * Delivery status on the run that sent the message: `result.delivery_status` (and
 * `delivery_error_code`, `delivery_updated_at`) of the `hi_action_runs` row holding the
 * counterpart's reference, under a row lock so two callbacks never interleave.
 */
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { advancesDelivery, type RecordedDelivery, type SmsDeliveryRepository, type SmsDeliveryUpdate } from '../domain/delivery-status';

export class KnexSmsDeliveryRepository implements SmsDeliveryRepository {
  constructor(private readonly db: Database) {}

  record(update: SmsDeliveryUpdate): Promise<RecordedDelivery | undefined> {
    return this.db.transaction(async (trx) => {
      let query = trx('hi_action_runs').where({ connector: update.connector, reference: update.reference, step: 'sms' });
      query = update.organizationId ? query.where({ organization_id: update.organizationId }) : query.whereNull('connection_id');
      const row = (await query.forUpdate().first('id', 'organization_id', 'result')) as { id: string; organization_id: string; result: unknown } | undefined;
      if (!row) return undefined;
      const result = row.result == null ? {} : fromJson<Record<string, unknown>>(row.result);
      const current = typeof result.delivery_status === 'string' ? result.delivery_status : undefined;
      if (!advancesDelivery(current, update.status)) return undefined;
      const next = { ...result, delivery_status: update.status, delivery_error_code: update.errorCode, delivery_updated_at: update.at.toISOString() };
      await trx('hi_action_runs')
        .where({ id: row.id })
        .update({ result: JSON.stringify(next) });
      return { organizationId: row.organization_id, runId: row.id, status: update.status, errorCode: update.errorCode };
    });
  }
}
