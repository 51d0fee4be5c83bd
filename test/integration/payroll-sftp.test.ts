/**
 * Payroll files over SFTP against Debian's OpenSSH sshd started by the test: the
 * connection test pins the host key (another key is connection_host_key_mismatch, an
 * unauthorized key connection_auth_failed, a missing directory directory_missing); a hire
 * lands once as a new_hire.v1 CSV with the expected row, its run's reference the file's
 * SHA-256; a different file under the same name is never overwritten (file_exists).
 * The contractor/1099 export lands once as a contractor_1099.v1 CSV with each contractor's
 * total in integer cents (timesheets + API payouts, a payout from a timesheet counted once),
 * and the same file is downloadable; only the TIN's last four digits are ever accepted. A
 * finished day's approved timesheets land once as an hours.v1 batch.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { settledLicense } from '../helpers/licensing';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { startTestHost, type TestHost } from '../helpers/test-host';

describe('payroll: new-hire files over SFTP to a real sshd', function () {
  this.timeout(60_000);
  let t: TestHost;
  let sshd: TestSshd;
  let acme: { organizationId: string; apiKey: string };
  let connectionId: string;
  let licenseId: string;

  const settings = (extra: object = {}) => ({
    host: '127.0.0.1',
    port: sshd.port,
    username: sshd.username,
    directory: sshd.inbound,
    host_key_sha256: sshd.hostKeySha256,
    ...extra,
  });
  const fire = (payload: object) =>
    t.request('POST', '/host/v1/hooks/candidate.hired', { auth: t.operatorKey, body: { organization_id: acme.organizationId, payload } });
  const testConnection = async () => (await t.request('POST', `/v1/integrations/connections/${connectionId}/test`, { auth: acme.apiKey })).body;
  const patch = (body: object) => t.request('PATCH', `/v1/integrations/connections/${connectionId}`, { auth: acme.apiKey, body });
  // hris-employee-sync also listens to candidate.hired (unlicensed here, so skipped).
  const outcome = (body: { outcomes: { handler: string; result?: any; reason?: string }[] }) =>
    body.outcomes.find((o) => o.handler === 'payroll-new-hire-file') as { result?: any; reason?: string };
  const hire = (id: string, name: string) => ({
    candidate_id: id,
    candidate: { name, email: `${id}@acme.example` },
    job_title: 'Line Cook',
    department: '=HYPERLINK("http://evil.example")',
    start_date: '2027-01-04',
    employment_type: 'part_time',
    pay_rate: { amount: 2150, currency: 'USD', per: 'hour' },
  });

  before(async () => {
    sshd = await startSshd();
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme');
    // No payroll-files connection yet (and no sandbox for that kind): the license waits, unbilled.
    const activation = await t.request('POST', '/v1/integrations/licenses/payroll.payroll_sync/activate', { auth: acme.apiKey });
    assert.equal(activation.status, 202, activation.text);
    assert.equal(activation.body.status, 'requires_connection', activation.text);
    assert.deepEqual(activation.body.missing_connections, ['payroll_files']);
    licenseId = activation.body.id;
  });
  after(async () => {
    await t?.close();
    await sshd?.stop();
  });

  it('pins the host key: another fingerprint is connection_host_key_mismatch, before any credential is sent', async () => {
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'sftp',
        settings: settings({ host_key_sha256: 'SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8' }),
        credentials: { private_key: sshd.clientKey },
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.kind, 'payroll_files');
    connectionId = created.body.id;
    const tested = await testConnection();
    assert.equal(tested.ok, false);
    assert.equal(tested.code, 'connection_host_key_mismatch', JSON.stringify(tested));
    const bad = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: { connector: 'sftp', settings: settings({ directory: 'relative/dir' }), credentials: { password: 'x' } },
    });
    assert.equal(bad.status, 400, bad.text);
  });

  it('an unauthorized key is connection_auth_failed; a missing directory is directory_missing; the right ones verify', async () => {
    assert.equal((await patch({ settings: settings(), credentials: { private_key: sshd.strangerKey } })).status, 200);
    assert.equal((await testConnection()).code, 'connection_auth_failed');
    assert.equal((await patch({ settings: settings({ directory: `${sshd.inbound}/nope` }), credentials: { private_key: sshd.clientKey } })).status, 200);
    assert.equal((await testConnection()).code, 'directory_missing');
    assert.equal((await patch({ settings: settings(), credentials: { private_key: sshd.clientKey } })).status, 200);
    const tested = await testConnection();
    assert.equal(tested.ok, true, JSON.stringify(tested));
    assert.ok(!JSON.stringify(tested).includes('PRIVATE KEY'));
    // The verified connection releases the waiting license.
    assert.equal((await settledLicense(t, acme.apiKey, licenseId)).status, 'active');
  });

  it('a hire lands once as a new_hire.v1 CSV with the expected row; the run holds its SHA-256', async () => {
    const fired = await fire(hire('cand_ada', 'Ada King Lovelace'));
    assert.deepEqual(fired.body.handled, ['payroll-new-hire-file'], fired.text);
    const file = path.join(sshd.inbound, 'new-hire-cand_ada.csv');
    const bytes = readFileSync(file);
    const rows = parse(bytes, { columns: true }) as Record<string, string>[];
    assert.deepEqual(rows, [
      {
        format: 'new_hire.v1',
        employee_external_id: 'cand_ada',
        first_name: 'Ada King',
        last_name: 'Lovelace',
        email: 'cand_ada@acme.example',
        job_title: 'Line Cook',
        department: `'=HYPERLINK("http://evil.example")`,
        start_date: '2027-01-04',
        employment_type: 'part_time',
        pay_rate: '21.50',
        pay_currency: 'USD',
        pay_per: 'hour',
      },
    ]);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    assert.equal(outcome(fired.body).result.sha256, sha256);
    const run = (await t.request('GET', '/v1/integrations/runs?action=payroll.payroll_sync', { auth: acme.apiKey })).body.data[0];
    assert.equal(run.status, 'succeeded');
    assert.equal(run.connector, 'sftp');
    assert.equal(run.reference, `sha256:${sha256}`);
    await fire(hire('cand_ada', 'Ada King Lovelace'));
    assert.deepEqual(
      readdirSync(sshd.inbound).filter((f) => f.includes('cand_ada')),
      ['new-hire-cand_ada.csv'],
      'one file, no temporary left behind',
    );
  });

  it('a different file under the same name is never overwritten: the run fails file_exists', async () => {
    writeFileSync(path.join(sshd.inbound, 'new-hire-cand_bob.csv'), 'imported,already\n');
    const fired = await fire(hire('cand_bob', 'Bob Builder'));
    assert.match(outcome(fired.body).reason ?? '', /^file_exists/, fired.text);
    assert.equal(readFileSync(path.join(sshd.inbound, 'new-hire-cand_bob.csv'), 'utf8'), 'imported,already\n');
  });

  describe('contractor/1099 export (payroll.contractor_export)', () => {
    const contractor = (extra: object = {}) => ({
      worker_id: 'wrk_rosa',
      email: 'rosa@workers.example',
      legal_name: 'Rosa Díaz',
      tin_type: 'ssn',
      tin_last4: '6789',
      address_line1: '1200 Harbor Way',
      city: 'Oakland',
      region: 'CA',
      postal_code: '94607',
      ...extra,
    });
    const exportFor = (body: object) => t.request('POST', '/v1/payroll/contractor_exports', { auth: acme.apiKey, body });

    before(async () => {
      const activated = await t.request('POST', '/v1/integrations/licenses/payroll.contractor_export/activate', { auth: acme.apiKey });
      assert.ok([201, 202].includes(activated.status), activated.text);
      assert.equal((await settledLicense(t, acme.apiKey, activated.body.id)).status, 'active');
      // What the year paid, written as the timesheets and payouts features store it.
      const db = t.database.db;
      const org = acme.organizationId;
      const at = (iso: string) => new Date(iso);
      await db('hi_placements').insert({
        id: 'plc_rosa',
        organization_id: org,
        worker_id: 'wrk_rosa',
        worker_name: 'Rosa Díaz',
        worker_email: 'rosa@workers.example',
        client_company_id: 'cli_77',
        client_name: 'Harbor Logistics',
        client_contact_name: 'Sam Lee',
        client_contact_email: 'sam@harbor.example',
        bill_rate_cents: 4500,
        pay_rate_cents: 2850,
        currency: 'USD',
        overtime_rule: 'flsa_weekly',
        timezone: 'America/Los_Angeles',
        created_at: at('2026-01-02T00:00:00Z'),
      });
      const sheet = (id: string, periodStart: string, status: string, payCents: number, decidedAt: string | null) => ({
        id,
        organization_id: org,
        placement_id: 'plc_rosa',
        period_start: periodStart,
        period_end: periodStart,
        status,
        entries: '[]',
        regular_minutes: 2400,
        overtime_minutes: 150,
        double_time_minutes: 0,
        pay_cents: payCents,
        bill_cents: 0,
        currency: 'USD',
        decided_at: decidedAt ? at(decidedAt) : null,
        created_at: at('2026-01-02T00:00:00Z'),
      });
      await db('hi_timesheets').insert([
        sheet('tms_a', '2026-03-02', 'approved', 124688, '2026-03-10T00:00:00Z'),
        sheet('tms_b', '2026-12-28', 'approved', 100, '2027-01-04T00:00:00Z'), // approved in the next tax year
        sheet('tms_c', '2026-04-06', 'rejected', 99999, '2026-04-10T00:00:00Z'),
      ]);
      const worker = (id: string, reference: string) => ({
        id,
        organization_id: org,
        reference,
        email: `${reference}@workers.example`,
        country: 'US',
        kyc_status: 'completed',
        payouts_enabled: true,
        created_at: at('2026-01-02T00:00:00Z'),
        updated_at: at('2026-01-02T00:00:00Z'),
      });
      await db('hi_payout_workers').insert([worker('wkr_rosa', 'wrk_rosa'), worker('wkr_kim', 'wrk_kim')]);
      const payout = (id: string, workerId: string, source: string, status: string, amount: number, createdAt: string) => ({
        id,
        organization_id: org,
        worker_id: workerId,
        reference: id,
        source,
        amount,
        fee: 0,
        currency: 'USD',
        status,
        created_at: at(createdAt),
        updated_at: at(createdAt),
      });
      await db('hi_payouts').insert([
        payout('pout_1', 'wkr_rosa', 'api', 'paid', 5000, '2026-06-01T00:00:00Z'),
        payout('pout_2', 'wkr_rosa', 'timesheet', 'paid', 124688, '2026-03-10T00:00:00Z'), // the timesheet's pay: counted once
        payout('pout_3', 'wkr_rosa', 'api', 'failed', 7000, '2026-06-02T00:00:00Z'),
        payout('pout_4', 'wkr_kim', 'api', 'paid', 700, '2026-07-01T00:00:00Z'), // no contractor record
      ]);
    });

    it('keeps the TIN to its last four digits; the same worker again replaces the details', async () => {
      const full = await t.request('POST', '/v1/payroll/contractors', { auth: acme.apiKey, body: contractor({ tin_last4: '123456789' }) });
      assert.equal(full.status, 400, full.text);
      assert.equal(full.body.error.param, 'tin_last4');
      const created = await t.request('POST', '/v1/payroll/contractors', { auth: acme.apiKey, body: contractor({ city: 'Alameda' }) });
      assert.equal(created.status, 201, created.text);
      const replaced = await t.request('POST', '/v1/payroll/contractors', { auth: acme.apiKey, body: contractor({ address_line2: '=1+2' }) });
      assert.equal(replaced.status, 200, replaced.text);
      assert.equal(replaced.body.id, created.body.id);
      assert.equal((await t.request('GET', `/v1/payroll/contractors/${created.body.id}`, { auth: acme.apiKey })).body.city, 'Oakland');
    });

    it('lands once on the SFTP server with each total in integer cents; the run holds its SHA-256; the download is the same file', async () => {
      const delivered = await exportFor({ tax_year: 2026, destination: 'sftp' });
      assert.equal(delivered.status, 201, delivered.text);
      const bytes = readFileSync(path.join(sshd.inbound, delivered.body.file_name));
      assert.equal(createHash('sha256').update(bytes).digest('hex'), delivered.body.sha256);
      assert.deepEqual(parse(bytes, { columns: true }), [
        {
          format: 'contractor_1099.v1',
          tax_year: '2026',
          contractor_id: 'wrk_rosa',
          legal_name: 'Rosa Díaz',
          tin_type: 'ssn',
          tin_last4: '6789',
          address_line1: '1200 Harbor Way',
          address_line2: "'=1+2",
          city: 'Oakland',
          region: 'CA',
          postal_code: '94607',
          country: 'US',
          currency: 'USD',
          timesheet_pay_cents: '124688',
          payout_cents: '5000',
          total_paid_cents: '129688',
        },
      ]);
      assert.deepEqual(delivered.body.total_paid_cents, { USD: 129688 });
      assert.deepEqual(delivered.body.unregistered_worker_ids, ['wrk_kim']);
      assert.equal(delivered.body.content, null);
      const run = (await t.request('GET', `/v1/integrations/runs/${delivered.body.run_id}`, { auth: acme.apiKey })).body;
      assert.equal(run.status, 'succeeded', JSON.stringify(run));
      assert.equal(run.action, 'payroll.contractor_export');
      assert.equal(run.reference, `sha256:${delivered.body.sha256}`);
      const again = await exportFor({ tax_year: 2026, destination: 'sftp' });
      assert.equal(again.body.run_id, delivered.body.run_id);
      assert.deepEqual(
        readdirSync(sshd.inbound).filter((f) => f.includes('contractors-1099')),
        [delivered.body.file_name],
        'one file, no temporary left behind',
      );
      const downloaded = await exportFor({ tax_year: 2026 });
      assert.equal(downloaded.status, 201, downloaded.text);
      assert.equal(downloaded.body.content, bytes.toString('utf8'));
      assert.equal(downloaded.body.sha256, delivered.body.sha256);
      assert.notEqual(downloaded.body.run_id, delivered.body.run_id);
      assert.equal((await exportFor({ tax_year: 2099 })).body.error.code, 'tax_year_invalid');
    });

    it("a finished day's approved timesheets land once as an hours.v1 batch; the download is the same file", async () => {
      const batch = (body: object) => t.request('POST', '/v1/payroll/hours_batches', { auth: acme.apiKey, body });
      const delivered = await batch({ date: '2026-03-10', destination: 'sftp' });
      assert.equal(delivered.status, 201, delivered.text);
      assert.equal(delivered.body.file_name, 'hours-2026-03-10.csv');
      const bytes = readFileSync(path.join(sshd.inbound, 'hours-2026-03-10.csv'));
      assert.equal(createHash('sha256').update(bytes).digest('hex'), delivered.body.sha256);
      assert.deepEqual(parse(bytes, { columns: true }), [
        {
          format: 'hours.v1',
          employee_external_id: 'wrk_rosa',
          worker_name: 'Rosa Díaz',
          timesheet_id: 'tms_a',
          client_company_id: 'cli_77',
          period_start: '2026-03-02',
          period_end: '2026-03-02',
          regular_minutes: '2400',
          overtime_minutes: '150',
          double_time_minutes: '0',
          pay_rate_cents: '2850',
          pay_cents: '124688',
          currency: 'USD',
          approved_at: '2026-03-10T00:00:00.000Z',
        },
      ]);
      const run = (await t.request('GET', `/v1/integrations/runs/${delivered.body.run_id}`, { auth: acme.apiKey })).body;
      assert.deepEqual([run.status, run.action, run.reference], ['succeeded', 'payroll.payroll_sync', `sha256:${delivered.body.sha256}`]);
      assert.equal((await batch({ date: '2026-03-10', destination: 'sftp' })).body.run_id, delivered.body.run_id, 'once per day');
      const downloaded = await batch({ date: '2026-03-10' });
      assert.equal(downloaded.body.content, bytes.toString('utf8'));
      const unfinished = await batch({ date: new Date().toISOString().slice(0, 10) });
      assert.deepEqual([unfinished.status, unfinished.body.error.code], [400, 'date_invalid']);
    });
  });
});
