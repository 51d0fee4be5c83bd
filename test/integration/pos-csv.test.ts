/**
 * hris.pos_sync for a point of sale without an API: the `pos-csv` connector (kind `pos`)
 * against Debian's OpenSSH sshd started by the test. The license waits for a `pos` connection
 * and settles `active` with this one (as with Square's); a hire lands once as a
 * pos_team_member.v1 CSV with the expected row (formula cells defused), its run's reference
 * the file's SHA-256; an update is a second file, a termination a third with status inactive;
 * a different file already under a change's name is a failed run file_exists (never overwritten);
 * another organization sees none of it.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

  it("a different file already under the change's name is never overwritten: a failed run file_exists; another organization sees nothing", async () => {
    // The name the connector gives the hire of cand_pos_2 (its idempotency key digested), taken by another file.
    const key = `pos-${acme.organizationId}-cand_pos_2`;
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
});
