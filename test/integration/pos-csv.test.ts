/**
 * hris.pos_sync for a point of sale without an API: the `pos-csv` connector (kind `pos`)
 * against Debian's OpenSSH sshd started by the test. The license waits for a `pos` connection
 * and settles `active` with this one (as with Square's); a hire lands once as a
 * pos_team_member.v1 CSV with the expected row (formula cells defused), its run's reference
 * the file's SHA-256; an update is a second file, a termination a third with status inactive;
 * a different file already under a change's name is a failed run file_exists (never overwritten);
 * another organization sees none of it.
 *
 * Then payroll changes and the downloads of the files that went over SFTP only: employee.updated and
 * employee.terminated are recorded once per change (a hook fired again records nothing; a new phone
 * number alone is no payroll change); a finished day's changes land once as a change.v1 batch on
 * the SFTP server (old → new pay rate in integer cents, reason, effective date), its run's
 * reference the file's SHA-256, never overwriting other bytes (file_exists); the same batch, the
 * day's hires (new_hire.v1) and every current POS team member (pos_team_member.v1, one row each)
 * download over HTTP as action runs with their SHA-256; another organization gets none of it.
 *
 * Last, download only: an organization without an SFTP server activates both licenses with the
 * payroll-download and pos-download connections (no server settings, an honest test); its hooks
 * record the roster and journal and say so (delivery: download), with no run and no file; the new
 * hires, the change batch and the team members download as the only runs; destination sftp is 409.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { settledLicense } from '../helpers/licensing';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { startTestHost, type TestHost } from '../helpers/test-host';

describe('pos: team members as CSV files over SFTP (pos-csv) to a real sshd', function () {
  this.timeout(60_000);
  let t: TestHost;
  let sshd: TestSshd;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  let connectionId: string;

  const settings = (extra: object = {}) => ({
    host: '127.0.0.1',
    port: sshd.port,
    username: sshd.username,
    directory: sshd.inbound,
    host_key_sha256: sshd.hostKeySha256,
    ...extra,
  });
  const hook = (name: string, payload: object) =>
    t.request('POST', `/host/v1/hooks/${name}`, { auth: t.operatorKey, body: { organization_id: acme.organizationId, payload } });
  const outcome = (body: { outcomes: { handler: string; result?: any; reason?: string }[] }, handler: string) =>
    body.outcomes.find((o) => o.handler === handler) as { result?: any; reason?: string } | undefined;
  const rowsOf = (file: string) => parse(readFileSync(file), { columns: true }) as Record<string, string>[];
  const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
  const csvFiles = () => readdirSync(sshd.inbound).filter((name) => name.endsWith('.csv'));
  const hire = {
    candidate_id: 'cand_pos_1',
    candidate: { name: 'Grace Brewster Hopper', email: 'grace@diner.example', phone: '+14155550100' },
    job_title: '=cmd|"/c calc"!A1',
    pay_rate: { amount: 1850, currency: 'USD', per: 'hour' },
  };

  before(async () => {
    sshd = await startSshd();
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    [acme, globex] = await Promise.all([t.createOrganization('Acme Diner'), t.createOrganization('Globex Grill')]);
  });
  after(async () => {
    await t?.close();
    await sshd?.stop();
  });

  it('the license waits for a pos connection and settles active with a verified pos-csv connection', async () => {
    const activation = await t.request('POST', '/v1/integrations/licenses/hris.pos_sync/activate', { auth: acme.apiKey });
    assert.equal(activation.status, 202, activation.text);
    assert.deepEqual([activation.body.status, activation.body.missing_connections], ['requires_connection', ['pos']]);
    const bad = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: { connector: 'pos-csv', settings: settings({ format: 'toast.v9' }), credentials: { private_key: sshd.clientKey } },
    });
    assert.equal(bad.status, 400, bad.text);
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: { connector: 'pos-csv', settings: settings(), credentials: { private_key: sshd.clientKey } },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual([created.body.kind, created.body.settings.format], ['pos', 'pos_team_member.v1']);
    connectionId = created.body.id;
    const tested = await t.request('POST', `/v1/integrations/connections/${connectionId}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
    assert.equal((await settledLicense(t, acme.apiKey, activation.body.id)).status, 'active');
  });

  it('a hire lands once as a pos_team_member.v1 CSV (formula cells defused); the run holds its SHA-256', async () => {
    const hired = await hook('candidate.hired', hire);
    assert.equal(hired.status, 200, hired.text);
    const synced = outcome(hired.body, 'pos-team-member-sync')?.result;
    assert.ok(synced, hired.text);
    assert.equal(synced.team_member_id, 'cand_pos_1');
    const file = synced.path as string;
    assert.equal(path.dirname(file), sshd.inbound);
    assert.deepEqual(rowsOf(file), [
      {
        format: 'pos_team_member.v1',
        external_id: 'cand_pos_1',
        change: 'upsert',
        status: 'active',
        first_name: 'Grace Brewster',
        last_name: 'Hopper',
        email: 'grace@diner.example',
        phone: '+14155550100',
        job_title: `'=cmd|"/c calc"!A1`,
        wage_cents: '1850',
        wage_currency: 'USD',
        wage_per: 'hour',
      },
    ]);
    assert.equal(synced.sha256, sha256(file));
    const runs = await t.request('GET', '/v1/integrations/runs?action=hris.pos_sync', { auth: acme.apiKey });
    assert.deepEqual(
      runs.body.data.map((r: { status: string; connector: string; reference: string }) => [r.status, r.connector, r.reference]),
      [['succeeded', 'pos-csv', `sha256:${sha256(file)}`]],
    );
    await hook('candidate.hired', hire);
    assert.equal(csvFiles().length, 1, 'a hire fired twice is one file');
    assert.equal((await t.request('GET', '/v1/integrations/runs?action=hris.pos_sync', { auth: acme.apiKey })).body.data.length, 1);
  });

  it('an update is a new file with the changed wage; a termination a file with status inactive', async () => {
    const updated = await hook('employee.updated', { ...hire, job_title: 'Shift lead', pay_rate: { amount: 2100, currency: 'USD', per: 'hour' } });
    const changed = outcome(updated.body, 'pos-team-member-update')?.result;
    assert.ok(changed, updated.text);
    assert.deepEqual(
      [rowsOf(changed.path)[0]!.job_title, rowsOf(changed.path)[0]!.wage_cents, rowsOf(changed.path)[0]!.change],
      ['Shift lead', '2100', 'upsert'],
    );
    const ended = await hook('employee.terminated', { candidate_id: 'cand_pos_1' });
    const end = outcome(ended.body, 'pos-team-member-deactivate')?.result;
    assert.ok(end, ended.text);
    const [row] = rowsOf(end.path);
    assert.deepEqual([row!.external_id, row!.change, row!.status, row!.first_name, row!.email], ['cand_pos_1', 'deactivate', 'inactive', '', '']);
    assert.equal(csvFiles().length, 3);
  });

  it('rehired, changed A → B → A: three files, the last at A; a retry writes none; terminated again, a second deactivation', async () => {
    const wage = (amount: number) => ({ ...hire, job_title: 'Cook', pay_rate: { amount, currency: 'USD', per: 'hour' } });
    const files = csvFiles().length;
    const written: string[] = [];
    for (const amount of [1900, 2000, 1900]) {
      const updated = await hook('employee.updated', wage(amount));
      const changed = outcome(updated.body, 'pos-team-member-update')?.result;
      assert.ok(changed, updated.text);
      written.push(changed.path);
    }
    assert.equal(new Set(written).size, 3);
    assert.deepEqual(
      written.map((file) => [rowsOf(file)[0]!.status, rowsOf(file)[0]!.wage_cents]),
      [
        ['active', '1900'],
        ['active', '2000'],
        ['active', '1900'],
      ],
      'the rehire re-activates; the change back is sent',
    );
    await hook('employee.updated', wage(1900));
    assert.equal(csvFiles().length, files + 3, 'a retry of the last change writes nothing');
    const ended = await hook('employee.terminated', { candidate_id: 'cand_pos_1' });
    const end = outcome(ended.body, 'pos-team-member-deactivate')?.result;
    assert.ok(end, ended.text);
    assert.deepEqual([rowsOf(end.path)[0]!.change, rowsOf(end.path)[0]!.status], ['deactivate', 'inactive']);
    await hook('employee.terminated', { candidate_id: 'cand_pos_1' });
    assert.equal(csvFiles().length, files + 4, 'the second termination is one file, its retry none');
  });

  it("a different file already under the change's name is never overwritten: a failed run file_exists; another organization sees nothing", async () => {
    // The name the connector gives the hire of cand_pos_2 (its idempotency key digested), taken by another file.
    const key = `pos-${acme.organizationId}-cand_pos_2-r1`;
    const taken = path.join(sshd.inbound, `team-member-cand_pos_2-${createHash('sha256').update(key).digest('hex').slice(0, 12)}.csv`);
    writeFileSync(taken, 'imported,by,the,pos\r\n');
    const hired = await hook('candidate.hired', { ...hire, candidate_id: 'cand_pos_2' });
    assert.match(String(outcome(hired.body, 'pos-team-member-sync')?.reason), /file_exists/, hired.text);
    const runs = await t.request('GET', '/v1/integrations/runs?action=hris.pos_sync&status=failed', { auth: acme.apiKey });
    assert.deepEqual(
      runs.body.data.map((r: { error: { code: string } }) => r.error.code),
      ['file_exists'],
    );
    assert.equal(readFileSync(taken, 'utf8'), 'imported,by,the,pos\r\n', 'the file the POS may have imported is untouched');
    assert.equal((await t.request('GET', `/v1/integrations/connections/${connectionId}`, { auth: globex.apiKey })).status, 404);
    assert.equal((await t.request('GET', '/v1/integrations/runs?action=hris.pos_sync', { auth: globex.apiKey })).body.data.length, 0);
  });

  describe('payroll changes (change.v1 daily batch) and downloads of the SFTP-only files', () => {
    let payrollDirectory: string;
    /** The UTC day the changes were recorded on (their batch), and the finished day before it. */
    let today: string;
    let yesterday: string;

    const digestOf = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
    const result = (body: { outcomes: { handler: string; result?: any; reason?: string }[] }, handler: string) =>
      outcome(body, handler)?.result as Record<string, any>;
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
      payrollDirectory = path.join(sshd.inbound, 'payroll');
      mkdirSync(payrollDirectory);
      const activation = await post('/v1/integrations/licenses/payroll.payroll_sync/activate', {});
      assert.equal(activation.status, 202, activation.text);
      const created = await post('/v1/integrations/connections', {
        connector: 'sftp',
        settings: settings({ directory: payrollDirectory }),
        credentials: { private_key: sshd.clientKey },
      });
      assert.equal(created.status, 201, created.text);
      assert.equal((await post(`/v1/integrations/connections/${created.body.id}/test`, {})).body.ok, true);
      assert.equal((await settledLicense(t, acme.apiKey, activation.body.id)).status, 'active');
    });

    it('records each change once: old → new pay rate, the reason, the effective date; a retry or a new phone number alone records nothing', async () => {
      assert.equal((await hook('candidate.hired', hire())).status, 200);
      await hook('candidate.hired', hire({ candidate_id: 'cand_bob', candidate: { name: 'Bob Builder', email: 'bob@acme.example' }, pay_rate: undefined }));
      const raise = hire({
        job_title: 'Sous Chef',
        pay_rate: { amount: 2400, currency: 'USD', per: 'hour' },
        reason: 'Promotion',
        effective_date: '2026-12-01',
      });
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
      // Someone the roster does not know yet (hired before the license), reported twice at once: one change.
      const carl = {
        candidate_id: 'cand_carl',
        candidate: { name: 'Carl Sagan', email: 'carl@acme.example' },
        pay_rate: { amount: 5000000, currency: 'USD', per: 'year' },
      };
      const both = await Promise.all([hook('employee.updated', carl), hook('employee.updated', carl)]);
      assert.deepEqual(both.map((r) => result(r.body, 'payroll-change-record').recorded).sort(), [false, true], both.map((r) => r.text).join('\n'));
      const unfinished = await post('/v1/payroll/change_batches', { date: today });
      assert.deepEqual([unfinished.status, unfinished.body.error.code], [400, 'date_invalid']);
    });

    it("a finished day's changes land once as a change.v1 batch; the download is the same file; other bytes are never overwritten", async () => {
      await finishToday();
      const delivered = await post('/v1/payroll/change_batches', { date: yesterday, destination: 'sftp' });
      assert.equal(delivered.status, 201, delivered.text);
      assert.deepEqual([delivered.body.file_name, delivered.body.rows, delivered.body.content], [`changes-${yesterday}.csv`, 4, null]);
      const bytes = readFileSync(path.join(payrollDirectory, `changes-${yesterday}.csv`));
      assert.equal(digestOf(bytes), delivered.body.sha256);
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
        ['update', 'cand_carl', today, '', 'name email pay_rate', 'Carl', 'Sagan', '', '', '5000000', 'year'],
      ]);
      assert.ok(rows.every((r) => r.format === 'change.v1' && r.change_id.startsWith('pchg_')));
      const run = (await t.request('GET', `/v1/integrations/runs/${delivered.body.run_id}`, { auth: acme.apiKey })).body;
      assert.deepEqual(
        [run.status, run.action, run.connector, run.reference],
        ['succeeded', 'payroll.payroll_sync', 'sftp', `sha256:${delivered.body.sha256}`],
      );
      assert.equal((await post('/v1/payroll/change_batches', { date: yesterday, destination: 'sftp' })).body.run_id, run.id, 'once per day');
      assert.deepEqual(
        readdirSync(payrollDirectory).filter((f) => f.includes('changes-')),
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
      writeFileSync(path.join(payrollDirectory, `changes-${older}.csv`), 'imported,already\r\n');
      const refused = await post('/v1/payroll/change_batches', { date: older, destination: 'sftp' });
      assert.deepEqual([refused.status, refused.body.error.code], [409, 'file_exists'], refused.text);
      assert.equal(readFileSync(path.join(payrollDirectory, `changes-${older}.csv`), 'utf8'), 'imported,already\r\n');
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
      assert.equal(downloaded.body.sha256, digestOf(downloaded.body.content));
      const run = (await t.request('GET', `/v1/integrations/runs/${downloaded.body.run_id}`, { auth: acme.apiKey })).body;
      assert.deepEqual([run.status, run.connector, run.reference], ['succeeded', 'download', `sha256:${downloaded.body.sha256}`]);
      assert.equal((await post('/v1/payroll/new_hire_batches', { date: yesterday, destination: 'sftp' })).status, 400);
    });

    it('every current POS team member downloads as one pos_team_member.v1 file; terminated ones only when asked for', async () => {
      const active = await post('/v1/pos/team_member_exports', {});
      assert.equal(active.status, 201, active.text);
      const rows = parse(active.body.content, { columns: true }) as Record<string, string>[];
      assert.deepEqual(
        rows.map((r) => r.external_id),
        ['cand_ada', 'cand_carl', 'cand_pos_2'],
        'the active members: cand_bob and cand_pos_1 were terminated (cand_pos_2 was reported, though its file was refused)',
      );
      assert.deepEqual(rows.slice(0, 1), [
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
          ['cand_carl', 'upsert', 'active'],
          ['cand_pos_1', 'deactivate', 'inactive'],
          ['cand_pos_2', 'upsert', 'active'],
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

  describe('download-only: a Toast restaurant and a payroll team without an SFTP server (payroll-download, pos-download)', () => {
    let initech: { organizationId: string; apiKey: string };
    let yesterday: string;
    const post = (url: string, body: object, apiKey = initech.apiKey) => t.request('POST', url, { auth: apiKey, body });
    const fire = (name: string, payload: object) =>
      t.request('POST', `/host/v1/hooks/${name}`, { auth: t.operatorKey, body: { organization_id: initech.organizationId, payload } });
    const results = (body: { outcomes: { handler: string; result?: any; reason?: string }[] }) =>
      Object.fromEntries(body.outcomes.map((o) => [o.handler, o.result ?? o.reason]));
    const linda = {
      candidate_id: 'cand_linda',
      candidate: { name: 'Linda Belcher', email: 'linda@taqueria.example', phone: '+14155550123' },
      job_title: 'Server',
      department: 'Front of house',
      pay_rate: { amount: 1600, currency: 'USD', per: 'hour' },
    };

    before(async () => {
      initech = await t.createOrganization('Initech Taqueria');
    });

    it('the licenses activate with a download connection: no server settings, an honest test', async () => {
      const activations = await Promise.all(
        ['payroll.payroll_sync', 'hris.pos_sync'].map((action) => post(`/v1/integrations/licenses/${action}/activate`, {})),
      );
      assert.deepEqual(
        activations.map((a) => a.body.status),
        ['requires_connection', 'requires_connection'],
      );
      const withServer = await post('/v1/integrations/connections', { connector: 'pos-download', settings: { host: '127.0.0.1' } });
      assert.equal(withServer.status, 400, withServer.text);
      for (const connector of ['payroll-download', 'pos-download']) {
        const created = await post('/v1/integrations/connections', { connector });
        assert.equal(created.status, 201, created.text);
        assert.deepEqual([created.body.kind, created.body.settings], [connector === 'pos-download' ? 'pos' : 'payroll_files', {}]);
        const tested = await post(`/v1/integrations/connections/${created.body.id}/test`, {});
        assert.deepEqual([tested.body.ok, tested.body.message], [true, 'Files are downloaded through the API; nothing to connect to'], tested.text);
      }
      for (const activation of activations) assert.equal((await settledLicense(t, initech.apiKey, activation.body.id)).status, 'active');
    });

    it('a hire, a change and a termination are recorded for download: no run claims a delivery', async () => {
      const files = csvFiles().length;
      const hired = results((await fire('candidate.hired', linda)).body);
      assert.deepEqual(
        [hired['payroll-new-hire-file'].delivery, hired['payroll-new-hire-file'].download, hired['payroll-new-hire-file'].recorded],
        ['download', 'POST /v1/payroll/new_hire_batches', true],
        JSON.stringify(hired),
      );
      assert.equal(hired['payroll-new-hire-file'].run_id, undefined);
      assert.deepEqual(hired['pos-team-member-sync'], {
        candidate_id: 'cand_linda',
        recorded: true,
        delivery: 'download',
        download: 'POST /v1/pos/team_member_exports',
      });
      const raised = results((await fire('employee.updated', { ...linda, pay_rate: { amount: 1750, currency: 'USD', per: 'hour' }, reason: 'Raise' })).body);
      assert.deepEqual(
        [raised['payroll-change-record'].change_type, raised['payroll-change-record'].delivery, raised['pos-team-member-update'].delivery],
        ['update', 'download', 'download'],
        JSON.stringify(raised),
      );
      yesterday = new Date(Date.parse(`${raised['payroll-change-record'].batch_date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      await fire('candidate.hired', { ...linda, candidate_id: 'cand_gene', candidate: { name: 'Gene Belcher', email: 'gene@taqueria.example' } });
      const ended = results((await fire('employee.terminated', { candidate_id: 'cand_gene', terminated_on: '2026-11-30' })).body);
      assert.deepEqual(
        [ended['payroll-termination-record'].delivery, ended['pos-team-member-deactivate'].delivery],
        ['download', 'download'],
        JSON.stringify(ended),
      );
      for (const action of ['payroll.payroll_sync', 'hris.pos_sync']) {
        const runs = await t.request('GET', `/v1/integrations/runs?action=${action}`, { auth: initech.apiKey });
        assert.deepEqual(runs.body.data, [], `${action}: nothing was delivered, so no run`);
      }
      assert.equal(csvFiles().length, files, 'no file went to any server');
    });

    it('the files download (new hires, changes, team members) as download runs; destination sftp is refused before any run', async () => {
      await t.database.db.raw(`update hi_payroll_changes set recorded_at = recorded_at - interval '1 day' where organization_id = ?`, [initech.organizationId]);
      const refused = await post('/v1/payroll/change_batches', { date: yesterday, destination: 'sftp' });
      assert.deepEqual([refused.status, refused.body.error?.code], [409, 'delivery_download_only'], refused.text);
      const hires = await post('/v1/payroll/new_hire_batches', { date: yesterday });
      assert.equal(hires.status, 201, hires.text);
      assert.deepEqual(
        (parse(hires.body.content, { columns: true }) as Record<string, string>[]).map((r) => [r.employee_external_id, r.job_title, r.pay_rate]),
        [
          ['cand_linda', 'Server', '16.00'],
          ['cand_gene', 'Server', '16.00'],
        ],
      );
      const changes = await post('/v1/payroll/change_batches', { date: yesterday });
      assert.equal(changes.status, 201, changes.text);
      assert.deepEqual(
        (parse(changes.body.content, { columns: true }) as Record<string, string>[]).map((r) => [
          r.change_type,
          r.employee_external_id,
          r.old_pay_rate_cents,
          r.new_pay_rate_cents,
          r.reason,
        ]),
        [
          ['update', 'cand_linda', '1600', '1750', 'Raise'],
          ['termination', 'cand_gene', '1600', '', ''],
        ],
      );
      const team = await post('/v1/pos/team_member_exports', { status: 'all' });
      assert.equal(team.status, 201, team.text);
      assert.deepEqual(
        (parse(team.body.content, { columns: true }) as Record<string, string>[]).map((r) => [r.external_id, r.status, r.wage_cents]),
        [
          ['cand_gene', 'inactive', ''],
          ['cand_linda', 'active', '1750'],
        ],
      );
      const runs = await t.request('GET', '/v1/integrations/runs', { auth: initech.apiKey });
      assert.deepEqual(
        runs.body.data.map((r: { connector: string; status: string }) => [r.connector, r.status]),
        [
          ['download', 'succeeded'],
          ['download', 'succeeded'],
          ['download', 'succeeded'],
        ],
        'each download is the run, and only the downloads',
      );
      const connections = await t.request('GET', '/v1/integrations/connections', { auth: globex.apiKey });
      assert.ok(!JSON.stringify(connections.body).includes('download'), 'another organization sees none of these connections');
    });
  });
});
