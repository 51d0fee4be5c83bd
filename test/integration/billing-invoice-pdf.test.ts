/**
 * The invoice PDF prints what the HTML invoice shows, read back by a PDF reader we did not
 * write (pdftotext, Debian's poppler-utils): the minus sign of credits, and customers'
 * names in Latin, Greek and CJK.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { formatAmount, invoicePdf } from '../../src/features/billing/http/invoice-document';
import type { Invoice } from '../../src/features/billing/domain/invoice';
import { skipBecause } from '../helpers/skip';

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

function invoiceWithCredit(): Invoice {
  const line = (description: string, amount: number, proration: boolean) => ({
    type: 'package' as const,
    key: 'sourcing',
    description,
    amount,
    proration,
    periodStart: day('2026-11-01'),
    periodEnd: day('2026-12-01'),
  });
  return {
    id: 'inv_test',
    organizationId: 'org_test',
    number: 'HI-000042',
    status: 'open',
    currency: 'USD',
    attemptCount: 0,
    lastFailure: null,
    nextAttemptAt: null,
    createdAt: day('2026-11-15'),
    finalizedAt: day('2026-11-15'),
    paidAt: null,
    voidedAt: null,
    markedUncollectibleAt: null,
    periodStart: day('2026-11-01'),
    periodEnd: day('2026-12-01'),
    lines: [line('Sourcing package — Ελληνικά και 日本語の説明', 4900, false), line('Unused time on Starter (credit)', -1965, true)],
    subtotal: 2935,
    startingCredit: 0,
    total: 2935,
    endingCredit: 0,
  };
}

function pdfText(pdf: Buffer): string {
  const run = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: pdf, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

describe('invoice PDF text, read by pdftotext', function () {
  this.timeout(30_000);
  before(function () {
    if (spawnSync('pdftotext', ['-v']).error) {
      skipBecause(this, 'pdftotext is not installed (apt-get install -y poppler-utils)');
    }
  });

  it('prints a credit with its minus sign, U+2212, as the HTML invoice does', async () => {
    assert.equal(formatAmount(-1965, 'USD'), '\u2212USD 19.65');
    const text = pdfText(await invoicePdf(invoiceWithCredit(), 'Acme'));
    assert.ok(text.includes('\u2212USD 19.65'), text);
    assert.ok(text.includes('USD 49.00') && text.includes('USD 29.35'), text);
  });

  it("prints the customer's name and line descriptions in Latin, Greek and CJK", async () => {
    const pdf = await invoicePdf(invoiceWithCredit(), 'Søren & Ελληνικά 株式会社');
    const text = pdfText(pdf);
    assert.ok(text.includes('Billed to: Søren & Ελληνικά 株式会社 (org_test)'), text);
    assert.ok(text.includes('Ελληνικά και 日本語の説明'), text);
    assert.ok(text.includes('Invoice HI-000042'), text);
    assert.ok(pdf.length < 200_000, `only the glyphs used are embedded: ${pdf.length} bytes`);
  });
});
