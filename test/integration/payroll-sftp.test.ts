/**
 * Payroll files over SFTP against Debian's OpenSSH sshd started by the test: the
 * connection test pins the host key (another key is connection_host_key_mismatch, an
 * unauthorized key connection_auth_failed, a missing directory directory_missing); a hire
 * lands once as a new_hire.v1 CSV with the expected row, its run's reference the file's
 * SHA-256; a different file under the same name is never overwritten (file_exists).
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
});
