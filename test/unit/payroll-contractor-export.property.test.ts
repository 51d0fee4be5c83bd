/**
 * The contractor export's money and schedule: totals per worker and currency add up to the
 * payments exactly (integer cents, property-tested), a file row's total is its two parts, and
 * the yearly delivery happens only from January 10 to 31, for licensed organizations, for the
 * previous tax year.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import type { Contractor, ContractorPayment } from '../../src/features/payroll/domain/contractor';
import { contractorFile } from '../../src/features/payroll/domain/contractor-file';
import { ContractorExports } from '../../src/features/payroll/domain/contractor-exports';
import { totalsByWorker } from '../../src/features/payroll/domain/contractor-totals';
import { HoursBatches } from '../../src/features/payroll/domain/hours-batches';

const payment = fc.record({
  workerId: fc.constantFrom('wrk_a', 'wrk_b', 'wrk_c'),
  currency: fc.constantFrom('USD', 'usd', 'CAD'),
  cents: fc.integer({ min: 0, max: 100_000_000_00 }),
  source: fc.constantFrom<'timesheet' | 'payout'>('timesheet', 'payout'),
});

const contractorOf = (workerId: string): Contractor => ({
  id: `pctr_${workerId}`,
  organizationId: 'org_1',
  workerId,
  email: `${workerId}@example.com`,
  legalName: `Legal ${workerId}`,
  tinType: 'ssn',
  tinLast4: '0001',
  addressLine1: '1 Main St',
  addressLine2: null,
  city: 'Springfield',
  region: 'IL',
  postalCode: '62701',
  country: 'US',
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

describe('payroll: contractor export totals and schedule', () => {
  it('never loses or creates a cent: per currency, the totals add up to the payments, each total its two parts', () => {
    fc.assert(
      fc.property(fc.array(payment, { maxLength: 60 }), (payments: ContractorPayment[]) => {
        const totals = totalsByWorker(payments);
        for (const currency of ['USD', 'CAD']) {
          const paid = payments.filter((p) => p.currency.toUpperCase() === currency).reduce((s, p) => s + p.cents, 0);
          assert.equal(
            totals.filter((t) => t.currency === currency).reduce((s, t) => s + t.totalCents, 0),
            paid,
          );
        }
        for (const t of totals) assert.equal(t.timesheetCents + t.payoutCents, t.totalCents);
        // The file: registered workers only, the cents as written are the totals.
        const file = contractorFile(2026, [contractorOf('wrk_a'), contractorOf('wrk_b')], totals);
        const rows = parse(file.content, { columns: true }) as Record<string, string>[];
        const expected = totals.filter((t) => t.workerId !== 'wrk_c' && t.totalCents > 0);
        assert.equal(rows.length, expected.length);
        assert.equal(
          rows.reduce((s, r) => s + Number(r.total_paid_cents), 0),
          expected.reduce((s, t) => s + t.totalCents, 0),
        );
        assert.deepEqual(file.unregisteredWorkerIds, payments.some((p) => p.workerId === 'wrk_c') ? ['wrk_c'] : []);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a payment that is not a non-negative integer of cents', () => {
    assert.throws(() => totalsByWorker([{ workerId: 'w', currency: 'USD', cents: 10.5, source: 'payout' }]), RangeError);
  });

  it('delivers the previous tax year from January 10 to 31 only, to licensed organizations', async () => {
    const delivered: { organizationId: string; fileName: string }[] = [];
    const exports = new ContractorExports(
      {
        upsert: () => Promise.reject(new Error('unused')),
        get: () => Promise.resolve(undefined),
        all: () => Promise.resolve([contractorOf('wrk_a')]),
        organizations: () => Promise.resolve(['org_licensed', 'org_unlicensed']),
      },
      { inTaxYear: () => Promise.resolve([{ workerId: 'wrk_a', currency: 'USD', cents: 60_000, source: 'payout' }]) },
      {
        deliverFile: (f) => {
          delivered.push({ organizationId: f.organizationId, fileName: f.fileName });
          return Promise.resolve({ deliveryId: 'run_1', path: `/inbound/${f.fileName}`, sha256: 'x' });
        },
      },
      {} as never,
      { allows: (organizationId) => organizationId === 'org_licensed' },
      { publish: () => Promise.resolve() },
      { warn: () => undefined } as never,
      () => new Date('2027-01-20T00:00:00Z'),
    );
    assert.deepEqual(await exports.deliverYearly(new Date('2027-01-09T23:59:00Z')), { delivered: 0, failed: 0 });
    assert.deepEqual(await exports.deliverYearly(new Date('2027-02-01T00:00:00Z')), { delivered: 0, failed: 0 });
    assert.deepEqual(await exports.deliverYearly(new Date('2027-01-20T00:00:00Z')), { delivered: 1, failed: 0 });
    assert.equal(delivered.length, 1);
    assert.equal(delivered[0]!.organizationId, 'org_licensed');
    assert.match(delivered[0]!.fileName, /^contractors-1099-2026-[0-9a-f]{12}\.csv$/);
  });

  it('the hours sweep delivers each of the last 7 finished days that had approvals, for licensed organizations, once a day file', async () => {
    const delivered: string[] = [];
    const hours = new HoursBatches(
      () => ({ get: () => Promise.resolve(undefined), list: () => Promise.resolve([]) }),
      { organizationsWithApprovals: (since) => Promise.resolve(since.toISOString().startsWith('2026-11-25') ? ['org_licensed', 'org_unlicensed'] : []) },
      {
        deliverFile: (f) => {
          delivered.push(`${f.organizationId} ${f.fileName} ${f.idempotencyKey}`);
          return Promise.resolve({ deliveryId: 'run_1', path: `/inbound/${f.fileName}`, sha256: 'x' });
        },
      },
      {} as never,
      { allows: (organizationId) => organizationId === 'org_licensed' },
      { publish: () => Promise.resolve() },
      { warn: () => undefined } as never,
      () => new Date('2026-11-28T01:00:00Z'),
    );
    assert.deepEqual(await hours.deliverDue(new Date('2026-11-28T01:00:00Z')), { delivered: 1, failed: 0 });
    assert.deepEqual(delivered, ['org_licensed hours-2026-11-25.csv payroll-hours-org_licensed-2026-11-25']);
  });
});
