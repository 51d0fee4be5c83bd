/**
 * `sandbox` collection (test mode; the default of the standalone host): each organization
 * sets a test card, charged at finalization and on the retry schedule, like Stripe's
 * test cards. Nothing leaves the process.
 *
 *   4242 4242 4242 4242   succeeds
 *   4000 0000 0000 0002   declined (card_declined), every attempt
 *   4000 0000 0000 0119   processing_error on an invoice's first attempt, succeeds on a retry
 *   no card set           fails with no_payment_method
 */
import { invalid } from '../../../kernel/errors';
import type { CollectionOutcome, CollectionRequest, PaymentCollector } from '../domain/payment-collector';

export const SANDBOX_TEST_CARDS = {
  succeeds: '4242424242424242',
  declines: '4000000000000002',
  requiresRetry: '4000000000000119',
} as const;

export class SandboxPaymentCollector implements PaymentCollector {
  readonly mode = 'sandbox' as const;
  readonly automatic = true;

  async collect(request: CollectionRequest): Promise<CollectionOutcome> {
    const reference = `sandbox_charge_${request.invoiceId}_${request.attempt}`;
    switch (request.paymentMethod) {
      case null:
        return { status: 'failed', reason: 'no_payment_method' };
      case SANDBOX_TEST_CARDS.succeeds:
        return { status: 'succeeded', reference };
      case SANDBOX_TEST_CARDS.declines:
        return { status: 'failed', reason: 'card_declined' };
      case SANDBOX_TEST_CARDS.requiresRetry:
        return request.attempt <= 1 ? { status: 'failed', reason: 'processing_error' } : { status: 'succeeded', reference };
      default:
        return { status: 'failed', reason: 'card_declined' };
    }
  }

  validatePaymentMethod(number: string): void {
    if (!(Object.values(SANDBOX_TEST_CARDS) as string[]).includes(number)) {
      throw invalid('invalid_payment_method', `Sandbox collection takes the test cards only: ${Object.values(SANDBOX_TEST_CARDS).join(', ')}`, 'number');
    }
  }
}
