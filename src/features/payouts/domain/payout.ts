/**
 * A payout (`payouts.instant_pay`): an amount in integer minor units for one worker, moved in
 * two acknowledged steps, a transfer from the platform to the worker's account and an instant
 * payout from that account to the worker's card or bank; then `paid` or `failed` as the
 * provider reports it. The caller's reference is unique per organization: a retried request
 * is the same payout, never a second one.
 */
export type PayoutStatus = 'pending' | 'transferred' | 'in_transit' | 'paid' | 'failed';

/** Where the amount comes from: the API, or (once timesheets exist) an approved timesheet. */
export type PayoutSource = 'api' | 'timesheet';

export const INSTANT_PAY_ACTION = 'payouts.instant_pay';

export interface Payout {
  id: string;
  organizationId: string;
  workerId: string;
  reference: string;
  source: PayoutSource;
  /** What the worker earned, in minor units. */
  amount: number;
  /** The platform's instant-pay fee kept from it; the worker receives amount − fee. */
  fee: number;
  currency: string;
  status: PayoutStatus;
  transferId: string | null;
  transferRunId: string | null;
  providerPayoutId: string | null;
  payoutRunId: string | null;
  failureCode: string | null;
  failureMessage: string | null;
  livemode: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** One request to pay a worker: from `POST /v1/payouts/instant`, or an approved timesheet's total. */
export interface PayoutRequest {
  workerId: string;
  amount: number;
  currency: string;
  reference: string;
  source: PayoutSource;
  feeBasisPoints: number;
}

export type PayoutChange = Partial<
  Pick<Payout, 'status' | 'transferId' | 'transferRunId' | 'providerPayoutId' | 'payoutRunId' | 'failureCode' | 'failureMessage' | 'livemode'>
>;

export interface PayoutRepository {
  /** Inserts the payout, or answers the organization's payout already holding `reference`. */
  createOrGet(payout: Payout): Promise<{ payout: Payout; created: boolean }>;
  get(organizationId: string, id: string): Promise<Payout | undefined>;
  byProviderPayout(organizationId: string, providerPayoutId: string): Promise<Payout | undefined>;
  /** Updates unless the payout is already final (paid/failed); answers the row after, or undefined when it was final. */
  update(organizationId: string, id: string, change: PayoutChange, at: Date): Promise<Payout | undefined>;
}

export const PAYOUT_REPOSITORY = Symbol('PayoutRepository');
