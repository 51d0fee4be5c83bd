/**
 * Profile import against the sandbox provider: the job retries provider outages with
 * backoff (on BullMQ with Redis, in-process otherwise), refreshes a rejected token, and
 * the apply endpoint answers a clear 503 and writes no row while the provider is down.
 */
import { strict as assert } from 'node:assert';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { usingRedis } from '../helpers/redis';
import { ADA, enableProfileApply, GRACE, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';

const ORIGIN = 'https://jobs.initech.example';
const VALID = { years_experience: 4, work_authorization: false };

describe('profile import and provider outages', function () {
  this.timeout(60_000);
  let t: TestHost;
  let org: { organizationId: string; apiKey: string };
  let listingId: string;
  const fault = async (body: object) => {
    const response = await t.request('POST', '/sandbox/faults', { auth: t.operatorKey, body });
    assert.equal(response.status, 201, response.text);
    return response.body.data as { remaining?: number }[];
  };
  const snapshot = (userId: string) => t.database.db('hi_profile_snapshots').where({ organization_id: org.organizationId, profile_user_id: userId }).first();
  const apply = (userId: string) =>
    t.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, { auth: org.apiKey, body: { profile_user_id: userId, answers: VALID } });

  before(async () => {
    // A short provider deadline so the timeout case stays quick.
    t = await startTestHost({ env: { PROFILE_PROVIDER_TIMEOUT_MS: '400' } });
    org = await t.createOrganization('Initech');
    listingId = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Analyst', questions: QUESTIONS })).id;
    await enableProfileApply(t, org.apiKey, [ORIGIN]);
    for (const candidate of [ADA, GRACE]) {
      await runConnect(t, { organizationId: org.organizationId, listingId, origin: ORIGIN, button: `Authorize as ${candidate.name}` });
      await waitFor(() => snapshot(candidate.id), `import of ${candidate.name}`);
    }
  });
  afterEach(() => t.request('DELETE', '/sandbox/faults', { auth: t.operatorKey }));
  after(() => t?.close());

  it(`the import job retries provider 5xx with backoff until it succeeds (${usingRedis() ? 'BullMQ' : 'in-process'})`, async () => {
    await t.database.db('hi_profile_snapshots').where({ profile_user_id: ADA.id }).delete();
    await fault({ target: 'profile', mode: 'status', status: 503, times: 2 });
    const authorization = await t.database.db('hi_candidate_authorizations').where({ organization_id: org.organizationId, profile_user_id: ADA.id }).first();
    // Enqueue as the connect callback does: an outbox row the relay hands to the queue.
    await t.database.db('hi_outbox').insert({
      queue: 'profile-import',
      name: 'import',
      job_id: `import-${authorization.id}-retry-test`,
      data: JSON.stringify({ organization_id: org.organizationId, profile_user_id: ADA.id, authorization_id: authorization.id }),
    });
    const started = Date.now();
    const stored = await waitFor(() => snapshot(ADA.id), 'the retried import', 30_000);
    // Two failures, then success: backoff 2 s then 4 s.
    assert.ok(Date.now() - started >= 5_500, `waited for the backoff (${Date.now() - started} ms)`);
    const experience = typeof stored.experience_summary === 'string' ? JSON.parse(stored.experience_summary) : stored.experience_summary;
    assert.equal(experience.current_company, 'Northwind Logistics');
    const remaining = await fault({ target: 'token', mode: 'status', status: 500, times: 1 });
    assert.ok(!remaining.some((f) => (f as { target?: string }).target === 'profile'), 'both profile faults were consumed');
  });

  it('a rejected access token is refreshed and the import carries on', async () => {
    const before = await t.database.db('hi_candidate_authorizations').where({ organization_id: org.organizationId, profile_user_id: GRACE.id }).first();
    await t.database.db('hi_profile_snapshots').where({ profile_user_id: GRACE.id }).delete();
    await fault({ target: 'profile', mode: 'status', status: 401, times: 1 });
    const response = await apply(GRACE.id);
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body.imported_skills, ['Compilers', 'COBOL']);
    const after = await t.database.db('hi_candidate_authorizations').where({ id: before.id }).first();
    assert.notEqual(after.access_token_ciphertext, before.access_token_ciphertext, 'the refreshed token was stored');
  });

  it('provider 5xx during an on-demand import: 503 provider_unavailable and no application row', async () => {
    await t.database.db('hi_profile_snapshots').where({ profile_user_id: ADA.id }).delete();
    await fault({ target: 'profile', mode: 'status', status: 502 });
    const deliveriesBefore = (await t.database.db('hi_outbox').where({ queue: 'pipeline-delivery' })).length;
    const response = await apply(ADA.id);
    assert.equal(response.status, 503, response.text);
    assert.equal(response.body.error.code, 'provider_unavailable');
    assert.match(response.body.error.message, /unavailable/);
    assert.equal((await t.database.db('hi_profile_applications').where({ profile_user_id: ADA.id })).length, 0);
    assert.equal((await t.database.db('hi_outbox').where({ queue: 'pipeline-delivery' })).length, deliveriesBefore);
  });

  it('a provider that hangs past the deadline: 503 and no row', async () => {
    await fault({ target: 'profile', mode: 'timeout', delay_ms: 3000 });
    const started = Date.now();
    const response = await apply(ADA.id);
    assert.equal(response.status, 503, response.text);
    assert.match(response.body.error.message, /timed out/);
    assert.ok(Date.now() - started < 2500, 'the deadline, not the provider, decided');
    assert.equal((await t.database.db('hi_profile_applications').where({ profile_user_id: ADA.id })).length, 0);
  });

  it('once the provider is back, the same submit succeeds', async () => {
    const response = await apply(ADA.id);
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body.imported_credentials, [
      { title: 'AWS Certified Solutions Architect – Professional', issuer: 'Amazon Web Services', verified: true, issued_at: '2023-04-12' },
      { title: 'Certified Kubernetes Administrator', issuer: 'Cloud Native Computing Foundation', verified: false, issued_at: '2021-09-30' },
    ]);
  });
});

describe('profile import: the apply endpoint waits for an on-demand import only so long', function () {
  this.timeout(60_000);
  let t: TestHost;

  before(async () => {
    t = await startTestHost({ env: { PROFILE_PROVIDER_TIMEOUT_MS: '5000', PROFILE_IMPORT_WAIT_MS: '300' } });
  });
  after(() => t?.close());

  it('a slow (not failed) provider: 503 at the wait limit, the import finishes in the background, and a retry succeeds', async () => {
    const org = await t.createOrganization('Hooli');
    const listingId = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Analyst', questions: QUESTIONS })).id;
    await enableProfileApply(t, org.apiKey, [ORIGIN]);
    await runConnect(t, { organizationId: org.organizationId, listingId, origin: ORIGIN, button: `Authorize as ${ADA.name}` });
    const snapshot = () => t.database.db('hi_profile_snapshots').where({ organization_id: org.organizationId, profile_user_id: ADA.id }).first();
    await waitFor(snapshot, 'the first import');
    await t.database.db('hi_profile_snapshots').where({ organization_id: org.organizationId }).delete();

    const held = await t.request('POST', '/sandbox/faults', { auth: t.operatorKey, body: { target: 'profile', mode: 'slow', delay_ms: 1500, times: 1 } });
    assert.equal(held.status, 201, held.text);
    const apply = () =>
      t.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
        auth: org.apiKey,
        body: { profile_user_id: ADA.id, answers: VALID },
      });
    const started = Date.now();
    const slow = await apply();
    assert.equal(slow.status, 503, slow.text);
    assert.equal(slow.body.error.code, 'provider_unavailable');
    assert.match(slow.body.error.message, /slow/);
    assert.ok(Date.now() - started < 1400, `the wait limit answered, not the provider (${Date.now() - started} ms)`);
    assert.equal((await t.database.db('hi_profile_applications').where({ organization_id: org.organizationId })).length, 0);

    await waitFor(snapshot, 'the import, finished in the background');
    const retried = await apply();
    assert.equal(retried.status, 201, retried.text);
  });
});
