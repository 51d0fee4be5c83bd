/**
 * The payroll roster's comparison (applyReport): a report equal to the current entry changes
 * nothing (a hook fired again); an update sets only what it carries; payroll ignores the phone
 * number; an update after a termination is a rehire; a termination twice is one.
 */
import { strict as assert } from 'node:assert';
import { ChangeBatches } from '../../src/features/payroll/domain/change-batches';
import { applyReport, type RosterEntry, type RosterPerson } from '../../src/features/payroll/domain/employee-roster';

const person: RosterPerson = {
  name: 'Ada Lovelace',
  email: 'ada@acme.example',
  phone: null,
  jobTitle: 'Line Cook',
  department: 'Kitchen',
  startDate: '2026-11-02',
  employmentType: 'part_time',
  payRate: { amount: 2150, currency: 'USD', per: 'hour' },
};
const entry = (extra: Partial<RosterEntry> = {}): RosterEntry => ({
  candidateId: 'cand_ada',
  ...person,
  status: 'active',
  revision: 1,
  updatedAt: new Date(0),
  ...extra,
});

describe('payroll: the roster comparison', () => {
  it('a hire of someone new is a hire; the same hire again changes nothing', () => {
    assert.equal(applyReport('payroll', null, { kind: 'hire', candidateId: 'cand_ada', person })?.kind, 'hire');
    assert.equal(applyReport('payroll', entry(), { kind: 'hire', candidateId: 'cand_ada', person }), null);
  });

  it('an update sets only what it carries: a pay rate left out is unchanged, a new one is old → new', () => {
    assert.equal(applyReport('payroll', entry(), { kind: 'update', candidateId: 'cand_ada', person: { name: 'Ada Lovelace' } }), null);
    const raise = applyReport('payroll', entry(), {
      kind: 'update',
      candidateId: 'cand_ada',
      person: { jobTitle: 'Sous Chef', payRate: { amount: 2400, currency: 'USD', per: 'hour' } },
    });
    assert.deepEqual(
      [raise?.kind, raise?.changedFields, raise?.next.payRate?.amount, raise?.next.department],
      ['update', ['job_title', 'pay_rate'], 2400, 'Kitchen'],
    );
  });

  it('payroll does not read the phone number; the POS roster does', () => {
    const report = { kind: 'update' as const, candidateId: 'cand_ada', person: { phone: '+14155550199' } };
    assert.equal(applyReport('payroll', entry(), report), null);
    assert.deepEqual(applyReport('pos', entry(), report)?.changedFields, ['phone']);
  });

  it('a termination once; an update after it is a rehire', () => {
    const ended = applyReport('payroll', entry(), { kind: 'termination', candidateId: 'cand_ada' });
    assert.deepEqual([ended?.kind, ended?.changedFields, ended?.next.status], ['termination', ['status'], 'terminated']);
    assert.equal(applyReport('payroll', entry({ status: 'terminated' }), { kind: 'termination', candidateId: 'cand_ada' }), null);
    const back = applyReport('payroll', entry({ status: 'terminated' }), { kind: 'update', candidateId: 'cand_ada', person: { name: 'Ada Lovelace' } });
    assert.deepEqual([back?.kind, back?.changedFields, back?.next.status], ['rehire', ['status'], 'active']);
  });

  it('the change sweep delivers each of the last 7 finished days that had changes, for licensed organizations that do not download, once a day file', async () => {
    const delivered: string[] = [];
    const changes = new ChangeBatches(
      {
        apply: () => Promise.reject(new Error('unused')),
        list: () => Promise.resolve([]),
        records: () => Promise.resolve([]),
        organizationsWithRecords: (kinds, since) =>
          Promise.resolve(since.toISOString().startsWith('2026-11-25') && !kinds.includes('hire') ? ['org_licensed', 'org_unlicensed', 'org_downloads'] : []),
      },
      {
        deliverFile: (f) => {
          delivered.push(`${f.organizationId} ${f.fileName} ${f.idempotencyKey}`);
          return Promise.resolve({ deliveryId: 'run_1', path: `/inbound/${f.fileName}`, sha256: 'x' });
        },
      },
      {} as never,
      { allows: (organizationId) => organizationId !== 'org_unlicensed' },
      { publish: () => Promise.resolve() },
      { warn: () => undefined } as never,
      () => new Date('2026-11-28T01:00:00Z'),
      // org_downloads chose to download its files (a payroll-download connection): the schedule skips it.
      { deliversByDownload: (organizationId) => Promise.resolve(organizationId === 'org_downloads') },
    );
    assert.deepEqual(await changes.deliverDue(new Date('2026-11-28T01:00:00Z')), { delivered: 1, failed: 0 });
    assert.deepEqual(delivered, ['org_licensed changes-2026-11-25.csv payroll-changes-org_licensed-2026-11-25']);
  });
});
