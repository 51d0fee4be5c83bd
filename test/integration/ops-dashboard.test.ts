/** The job dashboard at /operator/jobs: operators only (Basic or Bearer), 404 without Redis. */
import { strict as assert } from 'node:assert';
import { loadManifest } from '../../src/platform/manifest/manifest';
import { requireRedis, usingRedis } from '../helpers/redis';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { skipBecause } from '../helpers/skip';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('job dashboard', function () {
  this.timeout(30_000);
  let t: TestHost;
  before(async () => {
    t = await startTestHost();
  });
  after(() => t?.close());

  it('asks a browser for credentials: 401 with WWW-Authenticate Basic, in the error model', async () => {
    const response = await t.request('GET', '/operator/jobs');
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate') ?? '', /^Basic realm="hiring-integrations jobs"/);
    assert.equal(response.body.error.code, 'missing_credentials');
    assert.ok(response.body.error.request_id);
  });

  it('refuses a wrong password, a malformed header and an organization key', async () => {
    const wrong = await t.request('GET', '/operator/jobs', { headers: { authorization: basic('admin', 'not-the-operator-key-000000') } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'invalid_api_key');
    assert.match(wrong.headers.get('www-authenticate') ?? '', /^Basic/);
    const malformed = await t.request('GET', '/operator/jobs', { headers: { authorization: 'Digest abc' } });
    assert.equal(malformed.status, 401);
    assert.equal(malformed.body.error.code, 'invalid_authorization_header');
    const { apiKey } = await t.createOrganization();
    for (const authorization of [`Bearer ${apiKey}`, basic('org', apiKey)]) {
      const organization = await t.request('GET', '/operator/jobs/api/queues', { headers: { authorization } });
      assert.equal(organization.status, 403);
      assert.equal(organization.body.error.code, 'operator_only');
    }
  });

  it('without Redis: a clear 404 for the operator, nothing crashes', async function () {
    if (usingRedis()) skipBecause(this, 'with REDIS_URL set the dashboard is served; this checks the embedded answer');
    for (const authorization of [basic('admin', t.operatorKey), `Bearer ${t.operatorKey}`]) {
      for (const path of ['/operator/jobs', '/operator/jobs/api/queues']) {
        const response = await t.request('GET', path, { headers: { authorization } });
        assert.equal(response.status, 404, path);
        assert.equal(response.body.error.code, 'jobs_dashboard_unavailable');
        assert.match(response.body.error.message, /REDIS_URL/);
      }
    }
    assert.equal((await t.request('GET', '/healthz')).status, 200);
  });

  describe('with Redis', () => {
    it('serves the bull-board page with Basic (operator key as password), under its mount path', async function () {
      requireRedis(this);
      const response = await t.request('GET', '/operator/jobs', { headers: { authorization: basic('anyone', t.operatorKey) } });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /text\/html/);
      assert.match(response.text, /<base href="\/operator\/jobs\/"/, 'assets are addressed under the mount path');
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const script = /src="(static\/js\/[^"]+\.js)"/.exec(response.text)?.[1];
      assert.ok(script, 'a script asset');
      const asset = `/operator/jobs/${script}`;
      assert.equal((await t.request('GET', asset!)).status, 401, 'assets need the credential too');
      assert.equal((await t.request('GET', asset!, { headers: { authorization: basic('x', t.operatorKey) } })).status, 200);
    });

    it('lists every queue of the manifest through its API (Bearer works too)', async function () {
      requireRedis(this);
      const response = await t.request('GET', '/operator/jobs/api/queues', { auth: t.operatorKey });
      assert.equal(response.status, 200);
      const names = (response.body.queues as Array<{ name: string }>).map((q) => q.name).sort();
      assert.deepEqual(
        names,
        loadManifest()
          .queues.map((q) => q.name)
          .sort(),
      );
    });

    it('refuses state-changing calls from another origin, accepts them from its own', async function () {
      requireRedis(this);
      const authorization = basic('admin', t.operatorKey);
      const foreign = await t.request('PUT', '/operator/jobs/api/queues/pause', { headers: { authorization, origin: 'https://evil.example' } });
      assert.equal(foreign.status, 403);
      assert.equal(foreign.body.error.code, 'cross_origin_refused');
      const crossSite = await t.request('PUT', '/operator/jobs/api/queues/pause', { headers: { authorization, 'sec-fetch-site': 'cross-site' } });
      assert.equal(crossSite.status, 403);
      const own = await t.request('PUT', '/operator/jobs/api/queues/resume', {
        headers: { authorization, origin: t.baseUrl, 'sec-fetch-site': 'same-origin' },
      });
      assert.equal(own.status, 200, own.text);
    });
  });
});
