/** An organization's billing account: its ledger, standing, test clock and payment method. */
import type { LedgerState } from './billing-ledger';

/** `active` pays on time; `past_due` has an unpaid invoice and is in grace; `suspended` is cut off. */
export type BillingStatus = 'active' | 'past_due' | 'suspended';

export interface PaymentMethod {
  type: 'test_card';
  last4: string;
}

export interface BillingAccount {
  organizationId: string;
  status: BillingStatus;
  ledger: LedgerState;
  /** Outside production: the account's frozen time (a test clock); null follows the system clock. */
  testClockAt: Date | null;
  pastDueSince: Date | null;
  paymentMethod: (PaymentMethod & { number: string }) | null;
}

export const newAccount = (organizationId: string, ledger: LedgerState): BillingAccount => ({
  organizationId,
  status: 'active',
  ledger,
  testClockAt: null,
  pastDueSince: null,
  paymentMethod: null,
});
