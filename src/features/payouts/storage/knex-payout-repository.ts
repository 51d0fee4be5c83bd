/** Payouts on knex: one row per organization and reference; a final payout (paid/failed) never changes again. */
import type { Database } from '../../../platform/database/database';
import type { Payout, PayoutChange, PayoutRepository, PayoutSource, PayoutStatus } from '../domain/payout';

interface PayoutRow {
  id: string;
  organization_id: string;
  worker_id: string;
  reference: string;
  source: PayoutSource;
  amount: number | string;
  fee: number | string;
  currency: string;
  status: PayoutStatus;
  transfer_id: string | null;
  transfer_run_id: string | null;
  provider_payout_id: string | null;
  payout_run_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
  livemode: boolean;
  created_at: Date;
  updated_at: Date;
}

const TABLE = 'hi_payouts';

const fromRow = (row: PayoutRow): Payout => ({
  id: row.id,
  organizationId: row.organization_id,
  workerId: row.worker_id,
  reference: row.reference,
  source: row.source,
  amount: Number(row.amount),
  fee: Number(row.fee),
  currency: row.currency,
  status: row.status,
  transferId: row.transfer_id,
  transferRunId: row.transfer_run_id,
  providerPayoutId: row.provider_payout_id,
  payoutRunId: row.payout_run_id,
  failureCode: row.failure_code,
  failureMessage: row.failure_message,
  livemode: Boolean(row.livemode),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

const COLUMNS: Record<keyof PayoutChange, string> = {
  status: 'status',
  transferId: 'transfer_id',
  transferRunId: 'transfer_run_id',
  providerPayoutId: 'provider_payout_id',
  payoutRunId: 'payout_run_id',
  failureCode: 'failure_code',
  failureMessage: 'failure_message',
  livemode: 'livemode',
};

export class KnexPayoutRepository implements PayoutRepository {
  constructor(private readonly db: Database) {}

  async createOrGet(p: Payout): Promise<{ payout: Payout; created: boolean }> {
    const inserted = await this.db(TABLE)
      .insert({
        id: p.id,
        organization_id: p.organizationId,
        worker_id: p.workerId,
        reference: p.reference,
        source: p.source,
        amount: p.amount,
        fee: p.fee,
        currency: p.currency,
        status: p.status,
        livemode: p.livemode,
        created_at: p.createdAt,
        updated_at: p.updatedAt,
      })
      .onConflict(['organization_id', 'reference'])
      .ignore()
      .returning('id');
    if (inserted.length > 0) return { payout: p, created: true };
    const existing = await this.db<PayoutRow>(TABLE).where({ organization_id: p.organizationId, reference: p.reference }).first();
    return { payout: fromRow(existing!), created: false };
  }

  async get(organizationId: string, id: string): Promise<Payout | undefined> {
    const row = await this.db<PayoutRow>(TABLE).where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async byProviderPayout(organizationId: string, providerPayoutId: string): Promise<Payout | undefined> {
    const row = await this.db<PayoutRow>(TABLE).where({ organization_id: organizationId, provider_payout_id: providerPayoutId }).first();
    return row ? fromRow(row) : undefined;
  }

  async update(organizationId: string, id: string, change: PayoutChange, at: Date): Promise<Payout | undefined> {
    const values: Record<string, unknown> = { updated_at: at };
    for (const [key, value] of Object.entries(change)) values[COLUMNS[key as keyof PayoutChange]] = value;
    const [row] = await this.db(TABLE).where({ organization_id: organizationId, id }).whereNotIn('status', ['paid', 'failed']).update(values).returning('*');
    return row ? fromRow(row as PayoutRow) : undefined;
  }
}
