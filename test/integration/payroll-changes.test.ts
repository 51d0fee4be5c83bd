/**
 * Changes to payroll and the downloadable files, against Debian's OpenSSH sshd started by the
 * test. employee.updated and employee.terminated are recorded once per change (a hook fired
 * again records nothing; a new phone number alone is no payroll change); a finished day's
 * changes land once as a change.v1 batch on the SFTP server (hidden name + rename, old → new
 * pay rate in integer cents, reason, effective date), its run's reference the file's SHA-256,
 * and never overwrite other bytes (file_exists); the same batch, the day's hires (new_hire.v1)
 * and every current POS team member (pos_team_member.v1, one row each) download over HTTP as
 * action runs with their SHA-256; another organization gets none of it.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { settledLicense } from '../helpers/licensing';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { startTestHost, type TestHost } from '../helpers/test-host';

describe('payroll: changes (change.v1 daily batch) and downloads of the SFTP-only files', function () {
  this.timeout(60_000);
  let t: TestHost;
  let sshd: TestSshd;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  let posDirectory: string;
  /** The UTC day the changes were recorded on (their batch), and the finished day before it. */
  let today: string;
  let yesterday: string;

  const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
  const hook = (name: string, payload: object) =>
    t.request('POST', `/host/v1/hooks/${name}`, { auth: t.operatorKey, body: { organization_id: acme.organizationId, payload } });
  const result = (body: { outcomes: { handler: string; result?: any; reason?: string }[] }, handler: string) =>
    body.outcomes.find((o) => o.handler === handler)?.result as Record<string, any>;
  const post = (url: string, body: object, apiKey = acme.apiKey) => t.request('POST', url, { auth: apiKey, body });
  const hire = (extra: object = {}) => ({
    candidate_id: 'cand_ada',
    candidate: { name: 'Ada King Lovelace', email: 'ada@acme.example', phone: '+14155550100' },
    job_title: 'Line Cook',
    department: 'Kitchen',
    start_date: '2026-11-02',
    employment_type: 'part_time',
    pay_rate: { amount: 2150, currency: 'USD', per: 'hour' },
    ...extra,
  });
  /** Moves what acme recorded today to yesterday, a finished day (the batch of a day that has not ended is not final). */
  const finishToday = () =>
    t.database.db.raw(`update hi_payroll_changes set recorded_at = recorded_at - interval '1 day' where organization_id = ?`, [acme.organizationId]);

  before(async () => {
    sshd = await startSshd();
    posDirectory = path.join(sshd.inbound, 'pos');
    mkdirSync(posDirectory);
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    [acme, globex] = await Promise.all([t.createOrganization('Acme Diner'), t.createOrganization('Globex Grill')]);
    const settings = (directory: string) => ({ host: '127.0.0.1', port: sshd.port, username: sshd.username, directory, host_key_sha256: sshd.hostKeySha256 });
    for (const [action, connector, directory] of [
      ['payroll.payroll_sync', 'sftp', sshd.inbound],
      ['hris.pos_sync', 'pos-csv', posDirectory],
    ] as const) {
      const activation = await post(`/v1/integrations/licenses/${action}/activate`, {});
      assert.equal(activation.status, 202, activation.text);
      const created = await post('/v1/integrations/connections', { connector, settings: settings(directory), credentials: { private_key: sshd.clientKey } });
      assert.equal(created.status, 201, created.text);
      assert.equal((await post(`/v1/integrations/connections/${created.body.id}/test`, {})).body.ok, true);
      assert.equal((await settledLicense(t, acme.apiKey, activation.body.id)).status, 'active');
    }
  });
  after(async () => {
    await t?.close();
    await sshd?.stop();
  });

  it('records each change once: old → new pay rate, the reason, the effective date; a retry or a new phone number alone records nothing', async () => {
    assert.equal((await hook('candidate.hired', hire())).status, 200);
    await hook('candidate.hired', hire({ candidate_id: 'cand_bob', candidate: { name: 'Bob Builder', email: 'bob@acme.example' }, pay_rate: undefined }));
    const raise = hire({ job_title: 'Sous Chef', pay_rate: { amount: 2400, currency: 'USD', per: 'hour' }, reason: 'Promotion', effective_date: '2026-12-01' });
    const changed = await hook('employee.updated', raise);
    assert.equal(changed.status, 200, changed.text);
    const recorded = result(changed.body, 'payroll-change-record');
    assert.deepEqual(
      [recorded.recorded, recorded.change_type, recorded.changed_fields, recorded.effective_date],
      [true, 'update', ['job_title', 'pay_rate'], '2026-12-01'],
      changed.text,
    );
    today = recorded.batch_date;
    yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    assert.equal(result((await hook('employee.updated', raise)).body, 'payroll-change-record').recorded, false, 'the same change fired twice');
    const phone = await hook('employee.updated', { ...raise, candidate: { ...raise.candidate, phone: '+14155550199' } });
    assert.equal(result(phone.body, 'payroll-change-record').recorded, false, 'payroll does not read the phone number');
    // An update without a pay rate leaves it as it is (never cleared by omission).
    const renamed = await hook('employee.updated', { candidate_id: 'cand_ada', candidate: { name: 'Ada Lovelace', email: 'ada@acme.example' } });
    assert.deepEqual(result(renamed.body, 'payroll-change-record').changed_fields, ['name']);
    const ended = await hook('employee.terminated', { candidate_id: 'cand_bob', terminated_on: '2026-11-30', reason: '=Resigned' });
    assert.equal(result(ended.body, 'payroll-termination-record').change_type, 'termination', ended.text);
    assert.equal(result((await hook('employee.terminated', { candidate_id: 'cand_bob' })).body, 'payroll-termination-record').recorded, false);
    const unfinished = await post('/v1/payroll/change_batches', { date: today });
    assert.deepEqual([unfinished.status, unfinished.body.error.code], [400, 'date_invalid']);
  });

  it("a finished day's changes land once as a change.v1 batch; the download is the same file; other bytes are never overwritten", async () => {
    await finishToday();
    const delivered = await post('/v1/payroll/change_batches', { date: yesterday, destination: 'sftp' });
    assert.equal(delivered.status, 201, delivered.text);
    assert.deepEqual([delivered.body.file_name, delivered.body.rows, delivered.body.content], [`changes-${yesterday}.csv`, 3, null]);
    const bytes = readFileSync(path.join(sshd.inbound, `changes-${yesterday}.csv`));
    assert.equal(sha256(bytes), delivered.body.sha256);
    const rows = parse(bytes, { columns: true }) as Record<string, string>[];
    const pick = (r: Record<string, string>) => [
      r.change_type,
      r.employee_external_id,
      r.effective_date,
      r.reason,
      r.changed_fields,
      r.first_name,
      r.last_name,
      r.job_title,
      r.old_pay_rate_cents,
      r.new_pay_rate_cents,
      r.new_pay_per,
    ];
    assert.deepEqual(rows.map(pick), [
      ['update', 'cand_ada', '2026-12-01', 'Promotion', 'job_title pay_rate', 'Ada King', 'Lovelace', 'Sous Chef', '2150', '2400', 'hour'],
      ['update', 'cand_ada', today, '', 'name', 'Ada', 'Lovelace', 'Sous Chef', '2400', '2400', 'hour'],
      ['termination', 'cand_bob', '2026-11-30', "'=Resigned", 'status', 'Bob', 'Builder', 'Line Cook', '', '', ''],
    ]);
    assert.ok(rows.every((r) => r.format === 'change.v1' && r.change_id.startsWith('pchg_')));
    const run = (await t.request('GET', `/v1/integrations/runs/${delivered.body.run_id}`, { auth: acme.apiKey })).body;
    assert.deepEqual([run.status, run.action, run.connector, run.reference], ['succeeded', 'payroll.payroll_sync', 'sftp', `sha256:${delivered.body.sha256}`]);
    assert.equal((await post('/v1/payroll/change_batches', { date: yesterday, destination: 'sftp' })).body.run_id, run.id, 'once per day');
    assert.deepEqual(
      readdirSync(sshd.inbound).filter((f) => f.includes('changes-')),
      [`changes-${yesterday}.csv`],
      'one file, no temporary left behind',
    );
    const downloaded = await post('/v1/payroll/change_batches', { date: yesterday });
    assert.equal(downloaded.status, 201, downloaded.text);
    assert.deepEqual([downloaded.body.content, downloaded.body.sha256], [bytes.toString('utf8'), delivered.body.sha256]);
    const downloadRun = (await t.request('GET', `/v1/integrations/runs/${downloaded.body.run_id}`, { auth: acme.apiKey })).body;
    assert.deepEqual([downloadRun.connector, downloadRun.reference], ['download', `sha256:${delivered.body.sha256}`]);
    // Another day whose name the payroll system already holds with other bytes: a failed run, the file untouched.
    const older = new Date(Date.parse(`${yesterday}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    writeFileSync(path.join(sshd.inbound, `changes-${older}.csv`), 'imported,already\r\n');
    const refused = await post('/v1/payroll/change_batches', { date: older, destination: 'sftp' });
    assert.deepEqual([refused.status, refused.body.error.code], [409, 'file_exists'], refused.text);
    assert.equal(readFileSync(path.join(sshd.inbound, `changes-${older}.csv`), 'utf8'), 'imported,already\r\n');
  });

  it("the day's hires download as one new_hire.v1 file, as an action run with its SHA-256", async () => {
    const downloaded = await post('/v1/payroll/new_hire_batches', { date: yesterday });
    assert.equal(downloaded.status, 201, downloaded.text);
    const rows = parse(downloaded.body.content, { columns: true }) as Record<string, string>[];
    assert.deepEqual(
      rows.map((r) => [r.format, r.employee_external_id, r.first_name, r.last_name, r.job_title, r.pay_rate]),
      [
        ['new_hire.v1', 'cand_ada', 'Ada King', 'Lovelace', 'Line Cook', '21.50'],
        ['new_hire.v1', 'cand_bob', 'Bob', 'Builder', 'Line Cook', ''],
      ],
    );
    assert.equal(downloaded.body.sha256, sha256(downloaded.body.content));
    const run = (await t.request('GET', `/v1/integrations/runs/${downloaded.body.run_id}`, { auth: acme.apiKey })).body;
    assert.deepEqual([run.status, run.connector, run.reference], ['succeeded', 'download', `sha256:${downloaded.body.sha256}`]);
    assert.equal((await post('/v1/payroll/new_hire_batches', { date: yesterday, destination: 'sftp' })).status, 400);
  });

  it('every current POS team member downloads as one pos_team_member.v1 file; terminated ones only when asked for', async () => {
    const active = await post('/v1/pos/team_member_exports', {});
    assert.equal(active.status, 201, active.text);
    const rows = parse(active.body.content, { columns: true }) as Record<string, string>[];
    assert.deepEqual(rows, [
      {
        format: 'pos_team_member.v1',
        external_id: 'cand_ada',
        change: 'upsert',
        status: 'active',
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@acme.example',
        phone: '+14155550199',
        job_title: 'Sous Chef',
        wage_cents: '2400',
        wage_currency: 'USD',
        wage_per: 'hour',
      },
    ]);
    const run = (await t.request('GET', `/v1/integrations/runs/${active.body.run_id}`, { auth: acme.apiKey })).body;
    assert.deepEqual([run.action, run.connector, run.reference], ['hris.pos_sync', 'download', `sha256:${active.body.sha256}`]);
    const all = await post('/v1/pos/team_member_exports', { status: 'all' });
    assert.deepEqual(
      (parse(all.body.content, { columns: true }) as Record<string, string>[]).map((r) => [r.external_id, r.change, r.status]),
      [
        ['cand_ada', 'upsert', 'active'],
        ['cand_bob', 'deactivate', 'inactive'],
      ],
    );
  });

  it('another organization gets none of it', async () => {
    for (const [action, url, body] of [
      ['payroll.payroll_sync', '/v1/payroll/change_batches', { date: yesterday }],
      ['payroll.payroll_sync', '/v1/payroll/new_hire_batches', { date: yesterday }],
      ['hris.pos_sync', '/v1/pos/team_member_exports', {}],
    ] as const) {
      const refused = await post(url, body, globex.apiKey);
      assert.deepEqual([refused.status, refused.body.error.code], [403, 'license_required'], `${action} ${url}: ${refused.text}`);
    }
    assert.equal((await t.request('GET', '/v1/integrations/runs?action=payroll.payroll_sync', { auth: globex.apiKey })).body.data.length, 0);
  });
});
