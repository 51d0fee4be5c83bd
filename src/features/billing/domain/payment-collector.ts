/**
 * Collection port: how money for a finalized invoice is collected. Two adapters
 * (src/features/billing/collectors/): `host` (the host collects and reports back; nothing is charged here)
 * and `sandbox` (test cards, charged at finalization and on the retry schedule). A
 * Stripe adapter would charge the customer's default payment method in `collect`.
 */
export type CollectionMode = 'host' | 'sandbox';

export interface CollectionRequest {
  invoiceId: string;
  organizationId: string;
  amount: number;
  currency: string;
  /** 1 for the first attempt; with the invoice id, the idempotency key of the charge. */
  attempt: number;
  /** The account's payment method number (sandbox test cards), if any. */
  paymentMethod: string | null;
}

export type CollectionOutcome = { status: 'succeeded'; reference: string } | { status: 'failed'; reason: string };

export interface PaymentCollector {
  readonly mode: CollectionMode;
  /** true: the plugin charges at finalization and retries; false: it waits for the host's report. */
  readonly automatic: boolean;
  collect(request: CollectionRequest): Promise<CollectionOutcome>;
  /** Refuses a payment method this collector cannot charge (400). */
  validatePaymentMethod(number: string): void;
}

export const PAYMENT_COLLECTOR = Symbol('PaymentCollector');
