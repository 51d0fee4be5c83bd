/**
 * The connect flow tells the widget, right after authorization, that the candidate has
 * already applied to this listing (and when), so the widget can say so before showing a
 * form; and the sandbox consent page names the organization and the listing.
 */
import { strict as assert } from 'node:assert';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { ADA, enableProfileApply, GRACE, QUESTIONS, runConnect } from '../helpers/profile-flow';

describe('connect: a candidate who already applied, and who is asking', function () {
  this.timeout(60_000);
  let t: TestHost;
  let org: { organizationId: string; apiKey: string };
  let listingId: string;
  let otherListingId: string;
  const origin = 'https://jobs.already.example';

  before(async () => {
    t = await startTestHost();
    org = await t.createOrganization('Already & Co <Careers>');
    listingId = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Data "Platform" Engineer', questions: QUESTIONS })).id;
    otherListingId = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Site Reliability Engineer', questions: [] })).id;
    await enableProfileApply(t, org.apiKey, [origin]);
  });
  after(() => t?.close());

  it('says nothing before the first application, then carries the first application id and date', async () => {
    const first = await runConnect(t, { organizationId: org.organizationId, listingId, origin, button: `Authorize as ${ADA.name}` });
    assert.equal(first.result?.message.type, 'profile-apply:authorized');
    assert.equal('already_applied' in first.result!.message, false, 'no earlier application, no field');

    const before = Date.now();
    const applied = await t.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
      auth: first.result!.message.candidate_token,
      body: { profile_user_id: ADA.id, answers: { years_experience: 3, work_authorization: true } },
    });
    assert.equal(applied.status, 201, applied.text);
    const stored = await t.request('GET', `/v1/opportunities/applications/${applied.body.application_id}`, { auth: org.apiKey });
    assert.equal(stored.status, 200, stored.text);

    const again = await runConnect(t, { organizationId: org.organizationId, listingId, origin, button: `Authorize as ${ADA.name}` });
    const message = again.result!.message;
    assert.equal(message.type, 'profile-apply:authorized');
    assert.deepEqual(message.already_applied, { application_id: applied.body.application_id, applied_at: stored.body.created_at });
    assert.ok(Math.abs(Date.parse(message.already_applied.applied_at) - before) < 60_000, 'the first application’s date');

    // Per listing and per candidate: another listing, or another candidate, has not applied.
    const elsewhere = await runConnect(t, { organizationId: org.organizationId, listingId: otherListingId, origin, button: `Authorize as ${ADA.name}` });
    assert.equal(elsewhere.result!.message.already_applied, undefined);
    const grace = await runConnect(t, { organizationId: org.organizationId, listingId, origin, button: `Authorize as ${GRACE.name}` });
    assert.equal(grace.result!.message.already_applied, undefined);
  });

  it('names the organization and the listing on the sandbox consent page, escaped', async () => {
    const run = await runConnect(t, { organizationId: org.organizationId, listingId, origin, button: 'Deny' });
    assert.equal(run.authorizeUrl.searchParams.get('hi_organization'), 'Already & Co <Careers>');
    assert.equal(run.authorizeUrl.searchParams.get('hi_listing'), 'Data "Platform" Engineer');
    assert.match(run.consent.text, /<strong>Already &amp; Co &lt;Careers&gt;<\/strong> wants to read your profile/);
    assert.match(run.consent.text, /For your application to <strong>Data &quot;Platform&quot; Engineer<\/strong>/);
    assert.match(run.consent.text, /<main>[\s\S]*<\/main>/, 'a main landmark');
    assert.equal(run.result?.message.code, 'consent_denied');
  });

  it('sends neither name to a configured provider', async () => {
    const configured = await startTestHost({
      env: {
        PROFILE_PROVIDER_AUTHORIZE_URL: 'https://provider.example/oauth/authorize',
        PROFILE_PROVIDER_TOKEN_URL: 'https://provider.example/oauth/token',
        PROFILE_PROVIDER_PROFILE_URL: 'https://provider.example/v1/profile',
        PROFILE_PROVIDER_CLIENT_ID: 'our-client',
        PROFILE_PROVIDER_CLIENT_SECRET: 'our-secret-value',
      },
    });
    try {
      const acme = await configured.createOrganization('Acme');
      const listing = (await configured.host.listings.create({ organizationId: acme.organizationId, title: 'Secret Project Lead', questions: [] })).id;
      await enableProfileApply(configured, acme.apiKey, [origin]);
      const query = new URLSearchParams({ organization_id: acme.organizationId, listing_id: listing, origin });
      const start = await fetch(`${configured.baseUrl}/v1/connect/profile?${query}`, { redirect: 'manual' });
      assert.equal(start.status, 302);
      const location = new URL(start.headers.get('location')!);
      assert.equal(`${location.origin}${location.pathname}`, 'https://provider.example/oauth/authorize');
      assert.equal(location.searchParams.get('client_id'), 'our-client');
      assert.equal(location.searchParams.has('hi_organization'), false);
      assert.equal(location.searchParams.has('hi_listing'), false);
      assert.ok(!location.toString().includes('Secret'), location.toString());
    } finally {
      await configured.close();
    }
  });
});
