/** Payout workers on knex: one row per organization and reference; KYC reports applied newest-first in one conditional UPDATE. */
import type { Database } from '../../../platform/database/database';
import type { KycStatus, PayoutWorkerRecord, PayoutWorkerRepository } from '../domain/payout-worker';

interface WorkerRow {
  id: string;
  organization_id: string;
  reference: string;
  email: string;
  phone: string | null;
  country: string;
  account_id: string | null;
  kyc_status: KycStatus;
  payouts_enabled: boolean;
  requirements_due: string[] | string;
  disabled_reason: string | null;
  onboarding_run_id: string | null;
  livemode: boolean;
  kyc_updated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const TABLE = 'hi_payout_workers';

const fromRow = (row: WorkerRow): PayoutWorkerRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  reference: row.reference,
  email: row.email,
  phone: row.phone,
  country: row.country,
  accountId: row.account_id,
  kycStatus: row.kyc_status,
  payoutsEnabled: Boolean(row.payouts_enabled),
  requirementsDue: typeof row.requirements_due === 'string' ? (JSON.parse(row.requirements_due) as string[]) : row.requirements_due,
  disabledReason: row.disabled_reason,
  onboardingRunId: row.onboarding_run_id,
  livemode: Boolean(row.livemode),
  kycUpdatedAt: row.kyc_updated_at ? new Date(row.kyc_updated_at) : null,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

export class KnexPayoutWorkerRepository implements PayoutWorkerRepository {
  constructor(private readonly db: Database) {}

  async createOrGet(w: PayoutWorkerRecord): Promise<{ worker: PayoutWorkerRecord; created: boolean }> {
    const inserted = await this.db(TABLE)
      .insert({
        id: w.id,
        organization_id: w.organizationId,
        reference: w.reference,
        email: w.email,
        phone: w.phone,
        country: w.country,
        account_id: w.accountId,
        kyc_status: w.kycStatus,
        payouts_enabled: w.payoutsEnabled,
        requirements_due: JSON.stringify(w.requirementsDue),
        disabled_reason: w.disabledReason,
        onboarding_run_id: w.onboardingRunId,
        livemode: w.livemode,
        kyc_updated_at: w.kycUpdatedAt,
        created_at: w.createdAt,
        updated_at: w.updatedAt,
      })
      .onConflict(['organization_id', 'reference'])
      .ignore()
      .returning('id');
    if (inserted.length > 0) return { worker: w, created: true };
    const existing = await this.db<WorkerRow>(TABLE).where({ organization_id: w.organizationId, reference: w.reference }).first();
    return { worker: fromRow(existing!), created: false };
  }

  async get(organizationId: string, id: string): Promise<PayoutWorkerRecord | undefined> {
    const row = await this.db<WorkerRow>(TABLE).where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async byAccount(organizationId: string, accountId: string): Promise<PayoutWorkerRecord | undefined> {
    const row = await this.db<WorkerRow>(TABLE).where({ organization_id: organizationId, account_id: accountId }).first();
    return row ? fromRow(row) : undefined;
  }

  async byReference(organizationId: string, reference: string): Promise<PayoutWorkerRecord | undefined> {
    const row = await this.db<WorkerRow>(TABLE).where({ organization_id: organizationId, reference }).first();
    return row ? fromRow(row) : undefined;
  }

  async list(organizationId: string, options: { limit: number; startingAfter?: string }): Promise<PayoutWorkerRecord[]> {
    const query = this.db<WorkerRow>(TABLE).where({ organization_id: organizationId }).orderBy('id', 'asc').limit(options.limit);
    if (options.startingAfter) query.where('id', '>', options.startingAfter);
    return (await query).map(fromRow);
  }

  async recordOnboarding(
    organizationId: string,
    id: string,
    o: { accountId: string; runId: string; livemode: boolean },
    at: Date,
  ): Promise<PayoutWorkerRecord> {
    const [row] = await this.db<WorkerRow>(TABLE)
      .where({ organization_id: organizationId, id })
      .update({
        // The first account stays: a host connector answering another id never replaces it.
        account_id: this.db.raw('coalesce(account_id, ?)', [o.accountId]) as never,
        kyc_status: this.db.raw("case when kyc_status = 'pending' then 'onboarding' else kyc_status end") as never,
        onboarding_run_id: o.runId,
        livemode: o.livemode,
        updated_at: at,
      })
      .returning('*');
    return fromRow(row as WorkerRow);
  }

  async applyKyc(
    organizationId: string,
    id: string,
    kyc: { status: KycStatus; payoutsEnabled: boolean; requirementsDue: string[]; disabledReason: string | null; occurredAt: Date },
    at: Date,
  ): Promise<{ before: PayoutWorkerRecord; after: PayoutWorkerRecord } | undefined> {
    return this.db.transaction(async (trx) => {
      const before = await trx<WorkerRow>(TABLE).where({ organization_id: organizationId, id }).forUpdate().first();
      if (!before) return undefined;
      // Stripe does not promise order: an event older than the state applied is stale.
      if (before.kyc_updated_at && new Date(before.kyc_updated_at).getTime() > kyc.occurredAt.getTime()) return undefined;
      const [after] = await trx<WorkerRow>(TABLE)
        .where({ organization_id: organizationId, id })
        .update({
          kyc_status: kyc.status,
          payouts_enabled: kyc.payoutsEnabled,
          requirements_due: JSON.stringify(kyc.requirementsDue) as never,
          disabled_reason: kyc.disabledReason,
          kyc_updated_at: kyc.occurredAt,
          updated_at: at,
        })
        .returning('*');
      return { before: fromRow(before), after: fromRow(after as WorkerRow) };
    });
  }
}
