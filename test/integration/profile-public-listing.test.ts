/** The widget's unauthenticated listing read, and CORS for allowed origins only. */
import { strict as assert } from 'node:assert';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { enableProfileApply, QUESTIONS } from '../helpers/profile-flow';

const ORIGIN = 'https://jobs.hooli.example';

describe('profile apply: public listing and CORS', () => {
  let t: TestHost;
  let org: { organizationId: string; apiKey: string };
  let listingId: string;
  const publicPath = () => `/v1/public/organizations/${org.organizationId}/listings/${listingId}`;

  before(async () => {
    t = await startTestHost();
    org = await t.createOrganization('Hooli');
    listingId = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Compression Engineer', questions: QUESTIONS })).id;
  });
  after(() => t?.close());

  it('is 404 until profile apply is enabled', async () => {
    const response = await t.request('GET', publicPath());
    assert.equal(response.status, 404);
  });

  it('shows the title, organization, questions and button once enabled', async () => {
    await enableProfileApply(t, org.apiKey, [ORIGIN], { button_text: 'Apply with Hooli profile', theme: 'auto' });
    const response = await t.request('GET', publicPath());
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, {
      id: listingId,
      object: 'listing',
      title: 'Compression Engineer',
      organization: { id: org.organizationId, name: 'Hooli' },
      questions: QUESTIONS,
      // What will be checked of the candidate's credentials (none for this listing; see credential-checks-api).
      requirements: [],
      contact: { email: 'optional' },
      profile_apply: { button_text: 'Apply with Hooli profile', theme: 'auto' },
    });
  });

  it("is 404 for a closed listing, another organization's listing, or an unknown organization", async () => {
    const closed = await t.host.listings.create({ organizationId: org.organizationId, title: 'Closed', questions: [], status: 'closed' });
    assert.equal((await t.request('GET', `/v1/public/organizations/${org.organizationId}/listings/${closed.id}`)).status, 404);
    const other = await t.createOrganization('Pied Piper');
    const foreign = await t.host.listings.create({ organizationId: other.organizationId, title: 'Foreign', questions: [] });
    assert.equal((await t.request('GET', `/v1/public/organizations/${org.organizationId}/listings/${foreign.id}`)).status, 404);
    assert.equal((await t.request('GET', `/v1/public/organizations/org_nothere/listings/${listingId}`)).status, 404);
  });

  it('is 404, like any unknown listing, for an id outside the listing-id rule (over 128 characters, a space, a slash)', async () => {
    const unknown = await t.request('GET', `/v1/public/organizations/${org.organizationId}/listings/listing_unknown`);
    assert.equal(unknown.status, 404);
    for (const bad of ['x'.repeat(129), 'y'.repeat(5000), 'a%20b', 'job%2F42']) {
      const response = await t.request('GET', `/v1/public/organizations/${org.organizationId}/listings/${bad}`);
      assert.equal(response.status, 404, `${bad.slice(0, 20)}: ${response.text}`);
      assert.equal(response.body.error.code, unknown.body.error.code);
      const applied = await t.request('POST', `/v1/opportunities/listings/${bad}/applications/profile`, {
        auth: org.apiKey,
        body: { profile_user_id: 'usr_sbx7Ada2Lovelace', answers: {} },
      });
      assert.equal(applied.status, 404, `${bad.slice(0, 20)}: ${applied.text}`);
      assert.equal(applied.body.error.code, 'resource_missing');
    }
  });

  it('echoes an allowed Origin with Vary: Origin, and sends no CORS headers to others', async () => {
    const allowed = await t.request('GET', publicPath(), { headers: { origin: ORIGIN } });
    assert.equal(allowed.headers.get('access-control-allow-origin'), ORIGIN);
    assert.match(allowed.headers.get('vary') ?? '', /Origin/);
    const stranger = await t.request('GET', publicPath(), { headers: { origin: 'https://evil.example' } });
    assert.equal(stranger.status, 200);
    assert.equal(stranger.headers.get('access-control-allow-origin'), null);
    assert.match(stranger.headers.get('vary') ?? '', /Origin/);
  });

  it('answers preflights of the apply endpoint for allowed origins only', async () => {
    const path = `/v1/opportunities/listings/${listingId}/applications/profile`;
    const preflight = (origin: string) =>
      t.request('OPTIONS', path, {
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, idempotency-key' },
      });
    const ok = await preflight(ORIGIN);
    assert.equal(ok.status, 204);
    assert.equal(ok.headers.get('access-control-allow-origin'), ORIGIN);
    assert.equal(ok.headers.get('access-control-allow-headers'), 'Authorization, Content-Type, Idempotency-Key');
    assert.equal(ok.headers.get('access-control-allow-methods'), 'GET, POST');
    const no = await preflight('https://evil.example');
    assert.equal(no.status, 204);
    assert.equal(no.headers.get('access-control-allow-origin'), null);
    assert.equal(no.headers.get('access-control-allow-headers'), null);
    // The actual call carries the header too, so the widget can read errors.
    const post = await t.request('POST', path, { headers: { origin: ORIGIN }, body: { profile_user_id: 'usr_x' } });
    assert.equal(post.status, 401);
    assert.equal(post.headers.get('access-control-allow-origin'), ORIGIN);
  });
});
