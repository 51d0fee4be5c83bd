/** Dunning rules, invoice states and the sandbox test cards, pure. */
import { strict as assert } from 'node:assert';
import { SANDBOX_TEST_CARDS, SandboxPaymentCollector } from '../../src/features/billing/collectors/sandbox-collector';
import { newAccount } from '../../src/features/billing/domain/billing-account';
import { emptyLedger } from '../../src/features/billing/domain/billing-ledger';
import { graceEndsAt, nextRetryAt, shouldSuspend } from '../../src/features/billing/domain/dunning';
import { formatInvoiceNumber, requireTransition, type Invoice } from '../../src/features/billing/domain/invoice';
import { isDomainError } from '../../src/kernel/errors';

const at = (iso: string) => new Date(iso);

describe('billing: dunning and invoice states', () => {
  it('retries 1, 3, 7 and 12 days after finalization, then stops', () => {
    const finalized = at('2027-02-01T00:00:00Z');
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => nextRetryAt(finalized, n)?.toISOString() ?? null),
      ['2027-02-02T00:00:00.000Z', '2027-02-04T00:00:00.000Z', '2027-02-08T00:00:00.000Z', '2027-02-13T00:00:00.000Z', null],
    );
  });

  it('suspends a past_due organization exactly when the grace period ends', () => {
    const account = { ...newAccount('org_x', emptyLedger()), status: 'past_due' as const, pastDueSince: at('2027-02-01T00:00:00Z') };
    assert.equal(graceEndsAt(account.pastDueSince, 14).toISOString(), '2027-02-15T00:00:00.000Z');
    assert.equal(shouldSuspend(account, at('2027-02-14T23:59:59Z'), 14), false);
    assert.equal(shouldSuspend(account, at('2027-02-15T00:00:00Z'), 14), true);
    assert.equal(shouldSuspend({ ...account, status: 'active' }, at('2027-03-01T00:00:00Z'), 14), false);
  });

  it('numbers invoices HI-000123 and refuses moves the state machine does not allow', () => {
    assert.equal(formatInvoiceNumber(123), 'HI-000123');
    const invoice = { status: 'paid', number: 'HI-000001', id: 'inv_x' } as Invoice;
    for (const to of ['void', 'uncollectible', 'paid'] as const) {
      assert.throws(
        () => requireTransition(invoice, to),
        (e) => isDomainError(e) && e.code === 'invalid_invoice_state',
      );
    }
    assert.doesNotThrow(() => requireTransition({ ...invoice, status: 'uncollectible' }, 'paid'), 'written off, still payable');
    assert.doesNotThrow(() => requireTransition({ ...invoice, status: 'open' }, 'void'));
  });

  it('sandbox test cards: succeeds, declines, needs a retry; others are refused as payment methods', async () => {
    const sandbox = new SandboxPaymentCollector();
    const charge = (paymentMethod: string | null, attempt = 1) =>
      sandbox.collect({ invoiceId: 'inv_x', organizationId: 'org_x', amount: 100, currency: 'USD', attempt, paymentMethod });
    assert.equal((await charge(SANDBOX_TEST_CARDS.succeeds)).status, 'succeeded');
    assert.deepEqual(await charge(SANDBOX_TEST_CARDS.declines, 3), { status: 'failed', reason: 'card_declined' });
    assert.deepEqual(await charge(SANDBOX_TEST_CARDS.requiresRetry, 1), { status: 'failed', reason: 'processing_error' });
    assert.equal((await charge(SANDBOX_TEST_CARDS.requiresRetry, 2)).status, 'succeeded');
    assert.deepEqual(await charge(null), { status: 'failed', reason: 'no_payment_method' });
    assert.throws(
      () => sandbox.validatePaymentMethod('5555555555554444'),
      (e) => isDomainError(e) && e.code === 'invalid_payment_method',
    );
  });
});
