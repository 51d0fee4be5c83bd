/**
 * A worker paid through the organization's payouts provider (`payouts.kyc_verification`):
 * the caller's reference (a candidate or contractor id), where the onboarding link goes, the
 * provider's account and the KYC state the provider last reported (`account.updated`).
 */
export type KycStatus = 'pending' | 'onboarding' | 'requirements_due' | 'completed' | 'disabled';

export const KYC_ACTION = 'payouts.kyc_verification';

export interface PayoutWorkerRecord {
  id: string;
  organizationId: string;
  reference: string;
  email: string;
  phone: string | null;
  country: string;
  accountId: string | null;
  kycStatus: KycStatus;
  payoutsEnabled: boolean;
  requirementsDue: string[];
  disabledReason: string | null;
  onboardingRunId: string | null;
  livemode: boolean;
  /** When the provider created the event the KYC state comes from. */
  kycUpdatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface KycReport {
  payoutsEnabled: boolean;
  currentlyDue: readonly string[];
  disabledReason: string | undefined;
}

/** Payouts enabled wins; then a disabled account; then what is still due; else onboarding goes on. */
export function kycStatusOf(report: KycReport): KycStatus {
  if (report.payoutsEnabled) return 'completed';
  if (report.disabledReason && report.currentlyDue.length === 0) return 'disabled';
  if (report.currentlyDue.length > 0) return 'requirements_due';
  return 'onboarding';
}

export interface PayoutWorkerRepository {
  /** Inserts the worker, or answers the organization's worker already holding `reference`. */
  createOrGet(worker: PayoutWorkerRecord): Promise<{ worker: PayoutWorkerRecord; created: boolean }>;
  get(organizationId: string, id: string): Promise<PayoutWorkerRecord | undefined>;
  byAccount(organizationId: string, accountId: string): Promise<PayoutWorkerRecord | undefined>;
  /** The worker the organization knows by `reference` (its own id: a placement's worker_id). */
  byReference(organizationId: string, reference: string): Promise<PayoutWorkerRecord | undefined>;
  list(organizationId: string, options: { limit: number; startingAfter?: string }): Promise<PayoutWorkerRecord[]>;
  /** Only the account and the run: never a second account once one is stored. */
  recordOnboarding(
    organizationId: string,
    id: string,
    onboarding: { accountId: string; runId: string; livemode: boolean },
    at: Date,
  ): Promise<PayoutWorkerRecord>;
  /** Applies a KYC report unless a newer one was applied already; answers the row before and after, or undefined when stale. */
  applyKyc(
    organizationId: string,
    id: string,
    kyc: { status: KycStatus; payoutsEnabled: boolean; requirementsDue: string[]; disabledReason: string | null; occurredAt: Date },
    at: Date,
  ): Promise<{ before: PayoutWorkerRecord; after: PayoutWorkerRecord } | undefined>;
}

export const PAYOUT_WORKER_REPOSITORY = Symbol('PayoutWorkerRepository');
