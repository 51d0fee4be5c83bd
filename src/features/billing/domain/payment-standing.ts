/**
 * The billing standing other areas ask: is this organization suspended for non-payment?
 * Suspended organizations keep their licenses, but gated hooks skip with reason
 * `payment_required`, profile apply answers 402, and nothing new can be bought.
 */
import { DomainError } from '../../../kernel/errors';

export interface PaymentStanding {
  isSuspended(organizationId: string): Promise<boolean>;
}

export const PAYMENT_STANDING = Symbol('PaymentStanding');

export const PAYMENT_REQUIRED = 'payment_required';

export const paymentRequired = () =>
  new DomainError(
    'payment_required',
    PAYMENT_REQUIRED,
    'This organization is suspended for an unpaid invoice; pay it to restore every license (GET /v1/billing/invoices)',
  );
