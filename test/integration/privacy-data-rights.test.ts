/**
 * A candidate's data rights end to end, against a real OpenID Connect provider
 * (oidc-provider, with RFC 7009 revocation) and a webhook receiver verifying signatures
 * with the reference library: Marie applies to organizations A and B, Pierre to A; A's
 * export of Marie holds every piece of her data in A and nothing of Pierre or of B; A's
 * erasure leaves no row of A naming her (the candidate.erased notice aside), revokes her
 * grant at the provider, tells the host and the webhook receiver, and leaves B and Pierre
 * untouched; a second erasure is harmless; an erasure that fails halfway resumes.
 */
import { strict as assert } from 'node:assert';
import { connectThroughProvider, MARIE, startOidcProvider, type Candidate, type OidcHarness } from '../helpers/oidc-provider';
import { enableProfileApply, QUESTIONS, waitFor } from '../helpers/profile-flow';
import { activateLicense } from '../helpers/hooks';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { FAST_WEBHOOKS, WebhookReceiver } from '../helpers/webhook-receiver';

const ORIGIN = 'https://jobs.curie.example';
const ANSWERS = { years_experience: 12, work_authorization: true };
const PIERRE: Candidate = { ...MARIE, id: 'usr_oidc2Pierre3Curie', name: 'Pierre Curie', positions: [] };
const MARIE_EMAIL = 'marie.sklodowska@curie.example';
const COVER = { marieA: 'Cover letter of Marie for A: radium 8f3e', marieB: 'Cover letter of Marie for B: polonium 2c9d', pierreA: 'Pierre for A: piezo 5b1a' };

interface Org {
  organizationId: string;
  apiKey: string;
  listingId: string;
}

describe('privacy: export and erasure of a candidate across every store', function () {
  this.timeout(180_000);
  let oidc: OidcHarness;
  let t: TestHost;
  let a: Org;
  let b: Org;
  let receiver: WebhookReceiver;

  const openOrg = async (name: string): Promise<Org> => {
    const org = await t.createOrganization(name);
    const listing = await t.host.listings.create({ organizationId: org.organizationId, title: `${name} physicist`, questions: QUESTIONS });
    await enableProfileApply(t, org.apiKey, [ORIGIN]);
    return { ...org, listingId: listing.id };
  };
  const apply = async (org: Org, candidate: Candidate, coverLetter: string) => {
    const run = await connectThroughProvider(t.baseUrl, { organizationId: org.organizationId, listingId: org.listingId, origin: ORIGIN, login: candidate.id });
    assert.equal(run.result?.message.type, 'profile-apply:authorized', JSON.stringify(run.result?.message));
    const applied = await t.request('POST', `/v1/opportunities/listings/${org.listingId}/applications/profile`, {
      auth: org.apiKey,
      body: { profile_user_id: candidate.id, cover_letter: coverLetter, answers: ANSWERS },
    });
    assert.equal(applied.status, 201, applied.text);
    await waitFor(
      async () => (await t.database.db('host_pipeline_applications').where({ application_id: applied.body.application_id }).first()) ?? undefined,
      `the pipeline delivery of ${candidate.name}'s application to ${org.organizationId}`,
    );
    return applied.body;
  };
  /** Every row of every table, as text, with its table name. */
  const dump = async () => {
    const tables: string[] = (
      await t.database.db.raw(`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`)
    ).rows.map((r: { table_name: string }) => r.table_name);
    const rows: { table: string; text: string }[] = [];
    for (const table of tables) {
      for (const row of (await t.database.db.raw(`select t::text as text from ?? t`, [table])).rows) rows.push({ table, text: row.text });
    }
    return rows;
  };
  const waitErasure = (org: Org, candidateId: string, erasureId: string) =>
    waitFor(
      async () => {
        const read = await t.request('GET', `/v1/candidates/${candidateId}/erasures/${erasureId}`, { auth: org.apiKey });
        return read.body.status === 'succeeded' ? read.body : undefined;
      },
      `erasure ${erasureId} to succeed`,
      60_000,
    );

  before(async () => {
    oidc = await startOidcProvider({ tokenAuthMethod: 'client_secret_basic', revocation: true, candidates: [MARIE, PIERRE] });
    t = await startTestHost({
      env: {
        ...FAST_WEBHOOKS,
        REMINDER_LEAD_MINUTES: '0',
        PROFILE_PROVIDER_ISSUER: oidc.issuer,
        PROFILE_PROVIDER_PROFILE_URL: `${oidc.apiUrl}/v1/profile`,
        PROFILE_PROVIDER_CLIENT_ID: oidc.clientId,
        PROFILE_PROVIDER_CLIENT_SECRET: oidc.clientSecret,
        PROFILE_PROVIDER_SCOPES: 'openid profile offline_access',
        PROFILE_PROVIDER_AUTHORIZE_PARAMS: 'prompt=consent',
      },
    });
    await oidc.register([`${t.baseUrl}/v1/connect/profile/callback`]);
    a = await openOrg('Curie Labs A');
    b = await openOrg('Curie Labs B');
    receiver = await WebhookReceiver.start();
    const endpoint = await t.request('POST', '/v1/webhook_endpoints', { auth: a.apiKey, body: { url: receiver.url, event_types: ['candidate.erased'] } });
    assert.equal(endpoint.status, 201, endpoint.text);
    receiver.secrets = [endpoint.body.secret];

    await apply(a, MARIE, COVER.marieA);
    await apply(b, MARIE, COVER.marieB);
    // Pierre's access token expires in seconds: the consent test makes the provider refuse its refresh.
    oidc.accessTokenTtlSeconds = 2;
    await apply(a, PIERRE, COVER.pierreA);
    oidc.accessTokenTtlSeconds = 3600;
    // A reminder the host scheduled for Marie (by her email), sent at once: a reminder row and a connector delivery.
    await activateLicense(t, a.apiKey, 'notifications.interview_reminder');
    const fired = await t.request('POST', '/host/v1/hooks/interview.scheduled', {
      auth: t.operatorKey,
      body: {
        organization_id: a.organizationId,
        payload: { interview_id: 'int_marie', candidate: { name: MARIE.name, email: MARIE_EMAIL }, starts_at: new Date(Date.now() + 500).toISOString() },
      },
    });
    assert.deepEqual(fired.body.handled, ['interview-reminder'], fired.text);
    await waitFor(
      async () => (await t.database.db('hi_connector_deliveries').where({ organization_id: a.organizationId }).first()) ?? undefined,
      "the reminder's email",
    );
  });
  after(async () => {
    await receiver?.stop();
    await t?.close();
    await oidc?.close();
  });

  it("A's export of Marie holds all her data in A, nothing of Pierre or of B, and lists the stores it covered", async () => {
    const created = await t.request('POST', `/v1/candidates/${MARIE.id}/exports`, { auth: a.apiKey, body: { emails: [MARIE_EMAIL] } });
    assert.equal(created.status, 202, created.text);
    assert.equal(created.body.status, 'pending');
    const done = await waitFor(async () => {
      const read = await t.request('GET', `/v1/candidates/${MARIE.id}/exports/${created.body.id}`, { auth: a.apiKey });
      return read.body.status === 'succeeded' ? read.body : undefined;
    }, 'the export to be built');
    const registry = (await t.request('GET', '/v1/candidates/data_stores', { auth: a.apiKey })).body;
    assert.deepEqual(
      done.stores_covered,
      registry.stores.map((s: { name: string }) => s.name),
    );

    // The signed link needs no API key.
    const download = await fetch(done.download_url);
    assert.equal(download.status, 200);
    const text = await download.text();
    const doc = JSON.parse(text);
    const section = (name: string) => doc.stores.find((s: { name: string }) => s.name === name).records;
    assert.equal(section('applications').length, 1);
    assert.equal(section('applications')[0].cover_letter, COVER.marieA);
    assert.equal(section('profile_snapshots')[0].name, MARIE.name);
    assert.equal(section('authorizations').length, 1);
    assert.equal(section('consents').length, 1);
    assert.equal(section('interview_reminders').length, 1);
    assert.equal(section('connector_deliveries').length, 1);
    assert.ok(section('events').some((e: { type: string }) => e.type === 'application.submitted'));
    // The profile import's job, kept by the queue after it finished, names her.
    assert.ok(
      section('queued_jobs').some((j: { queue: string }) => j.queue === 'profile-import'),
      JSON.stringify(section('queued_jobs')),
    );
    assert.ok(!/ciphertext/.test(text), 'no token ciphertext in an export');
    for (const foreign of [PIERRE.id, COVER.pierreA, COVER.marieB, b.organizationId]) assert.ok(!text.includes(foreign), `the export names ${foreign}`);

    const html = await fetch(`${done.download_url}&format=html`);
    assert.equal(html.status, 200);
    assert.match(html.headers.get('content-type')!, /text\/html/);
    assert.ok((await html.text()).includes(COVER.marieA));

    const forged = done.download_url.replace(/signature=[^&]+/, 'signature=AAAA');
    assert.equal((await fetch(forged)).status, 404);
    const otherCandidate = done.download_url.replace(MARIE.id, PIERRE.id);
    assert.equal((await fetch(otherCandidate)).status, 404);
  });

  it('records what each candidate consented to, with whom, and ends the consent when the provider refuses a refresh', async () => {
    const consents = await t.request('GET', `/v1/candidates/${MARIE.id}/consents`, { auth: a.apiKey });
    assert.equal(consents.status, 200, consents.text);
    assert.equal(consents.body.data.length, 1);
    const consent = consents.body.data[0];
    assert.equal(consent.listing_id, a.listingId);
    assert.equal(consent.organization_name, 'Curie Labs A');
    assert.deepEqual([...consent.scopes].sort(), ['offline_access', 'openid', 'profile']);
    assert.match(consent.statement, /Curie Labs A/);
    assert.match(consent.statement, /Curie Labs A physicist/);
    assert.equal(consent.revoked_at, null);
    assert.deepEqual((await t.request('GET', `/v1/candidates/${PIERRE.id}/consents`, { auth: b.apiKey })).body.data, []);

    // Pierre removes the app at the provider; the next import needs a refresh, which the provider refuses.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    await oidc.revokeGrants(PIERRE.id);
    await t.database
      .db('hi_profile_snapshots')
      .where({ organization_id: a.organizationId, profile_user_id: PIERRE.id })
      .update({ imported_at: new Date(Date.now() - 25 * 3600_000) });
    const second = await t.host.listings.create({ organizationId: a.organizationId, title: 'Second physicist', questions: QUESTIONS });
    const refused = await t.request('POST', `/v1/opportunities/listings/${second.id}/applications/profile`, {
      auth: a.apiKey,
      body: { profile_user_id: PIERRE.id, answers: ANSWERS },
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error.code, 'profile_not_authorized');
    const ended = (await t.request('GET', `/v1/candidates/${PIERRE.id}/consents`, { auth: a.apiKey })).body.data[0];
    assert.ok(ended.revoked_at, JSON.stringify(ended));
    assert.equal(ended.revoked_reason, 'revoked_at_provider');
  });

  it("another organization sees neither A's exports nor a candidate it never had", async () => {
    const exported = await t.request('POST', `/v1/candidates/${MARIE.id}/exports`, { auth: a.apiKey, body: {} });
    assert.equal((await t.request('GET', `/v1/candidates/${MARIE.id}/exports/${exported.body.id}`, { auth: b.apiKey })).status, 404);
    const unknown = await t.request('POST', `/v1/candidates/${PIERRE.id}/exports`, { auth: b.apiKey, body: {} });
    assert.equal(unknown.status, 404, unknown.text);
    assert.equal(unknown.body.error.code, 'resource_missing');
    const bad = await t.request('POST', '/v1/candidates/not-a-user/exports', { auth: a.apiKey, body: {} });
    assert.equal(bad.status, 400);
    const badEmail = await t.request('POST', `/v1/candidates/${MARIE.id}/erasure`, { auth: a.apiKey, body: { emails: ['nope'] } });
    assert.equal(badEmail.status, 400);
    assert.equal(badEmail.body.error.param, 'emails.0');
  });

  it('a legal hold blocks erasure until it is released', async () => {
    const hold = await t.request('POST', `/v1/candidates/${MARIE.id}/legal_holds`, { auth: a.apiKey, body: { reason: 'Litigation 2026-114' } });
    assert.equal(hold.status, 201, hold.text);
    const blocked = await t.request('POST', `/v1/candidates/${MARIE.id}/erasure`, { auth: a.apiKey, body: { emails: [MARIE_EMAIL] } });
    assert.equal(blocked.status, 409);
    assert.equal(blocked.body.error.code, 'legal_hold');
    assert.equal((await t.request('POST', `/v1/candidates/${MARIE.id}/legal_holds/${hold.body.id}/release`, { auth: b.apiKey })).status, 404);
    const released = await t.request('POST', `/v1/candidates/${MARIE.id}/legal_holds/${hold.body.id}/release`, { auth: a.apiKey });
    assert.equal(released.status, 200);
    assert.equal(released.body.active, false);
  });

  it("A's erasure of Marie leaves no row of A naming her, revokes her grant at the provider, tells host and webhooks, spares B and Pierre", async () => {
    const revocationsBefore = oidc.revocations.length;
    const started = await t.request('POST', `/v1/candidates/${MARIE.id}/erasure`, { auth: a.apiKey, body: { emails: [MARIE_EMAIL] } });
    assert.equal(started.status, 202, started.text);
    const done = await waitErasure(a, MARIE.id, started.body.id);
    assert.ok(done.stores.applications === 1 && done.stores.authorizations === 1 && done.stores.connector_deliveries === 1, JSON.stringify(done.stores));
    assert.ok(done.stores.queued_jobs >= 1, JSON.stringify(done.stores));

    // At the provider: the refresh token (and so the grant) and the access token were revoked.
    const revocations = oidc.revocations.slice(revocationsBefore);
    assert.deepEqual(
      revocations.map((r) => `${r.hint} ${r.status}`),
      ['refresh_token 200', 'access_token 200'],
    );

    // No row of any table names Marie's id, email, name or A's cover letter, except B's own rows and the erasure notice.
    const leftovers = (await dump()).filter(
      ({ text }) =>
        (text.includes(MARIE.id) || text.includes(MARIE_EMAIL) || text.includes(MARIE.name) || text.includes(COVER.marieA)) &&
        !text.includes(b.organizationId) &&
        !text.includes('"candidate.erased"') &&
        !text.includes('candidate.erased'),
    );
    assert.deepEqual(leftovers, []);
    assert.ok((await dump()).every(({ text }) => !text.includes(COVER.marieA) && !text.includes(MARIE_EMAIL)));

    // The receiver and the host's bus heard it; the host dropped its pipeline copy.
    const notice = await waitFor(async () => receiver.received.find((w) => w.payload.type === 'candidate.erased'), 'candidate.erased at the receiver');
    assert.equal(notice.payload.data.profile_user_id, MARIE.id);
    assert.ok(notice.verifiedWith.length > 0);
    assert.ok(t.host.hooks.recent.some((e) => e.hook === 'candidate.erased' && e.organizationId === a.organizationId));
    assert.equal((await t.database.db('host_pipeline_applications').where({ organization_id: a.organizationId, profile_user_id: MARIE.id })).length, 0);

    // B's Marie and A's Pierre are untouched.
    assert.equal((await t.database.db('hi_profile_applications').where({ organization_id: b.organizationId, profile_user_id: MARIE.id })).length, 1);
    assert.equal((await t.database.db('hi_candidate_authorizations').where({ organization_id: b.organizationId, profile_user_id: MARIE.id })).length, 1);
    assert.equal((await t.database.db('hi_profile_applications').where({ organization_id: a.organizationId, profile_user_id: PIERRE.id })).length, 1);

    // A no longer knows her; the erasure record keeps no data of her.
    assert.equal((await t.request('POST', `/v1/candidates/${MARIE.id}/exports`, { auth: a.apiKey, body: {} })).status, 404);
    const record = await t.database.db('hi_candidate_erasures').where({ id: started.body.id }).first();
    assert.equal(record.profile_user_id, null);
    assert.equal(record.contacts, null);
  });

  it('erasing again is harmless: nothing left to erase, B still intact', async () => {
    const again = await t.request('POST', `/v1/candidates/${MARIE.id}/erasure`, { auth: a.apiKey, body: { emails: [MARIE_EMAIL] } });
    assert.equal(again.status, 202, again.text);
    const done = await waitErasure(a, MARIE.id, again.body.id);
    assert.ok(
      Object.values(done.stores).every((n) => n === 0),
      JSON.stringify(done.stores),
    );
    assert.equal((await t.database.db('hi_profile_applications').where({ organization_id: b.organizationId, profile_user_id: MARIE.id })).length, 1);
  });

  it('an erasure that fails halfway resumes where it stopped', async () => {
    // A store fails (as a crash would stop the job): deleting Pierre's applications is refused by the database.
    await t.database.db.raw(`create function hi_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`);
    await t.database.db.raw(`create trigger hi_test_refuse before delete on hi_profile_applications for each row execute function hi_test_refuse()`);
    const started = await t.request('POST', `/v1/candidates/${PIERRE.id}/erasure`, { auth: a.apiKey, body: {} });
    assert.equal(started.status, 202, started.text);
    const stopped = await waitFor(async () => {
      const read = await t.request('GET', `/v1/candidates/${PIERRE.id}/erasures/${started.body.id}`, { auth: a.apiKey });
      return read.body.last_error ? read.body : undefined;
    }, 'the erasure to fail at the applications store');
    assert.equal(stopped.status, 'pending');
    assert.match(stopped.last_error, /refused by the test/);
    // (Pierre's authorization ended when the provider refused its refresh: nothing there to erase.)
    assert.equal(stopped.stores.profile_snapshots, 1, JSON.stringify(stopped.stores));
    assert.equal(stopped.stores.consents, 1, JSON.stringify(stopped.stores));
    assert.equal(stopped.stores.applications, undefined);
    // A second request joins the erasure in progress.
    const joined = await t.request('POST', `/v1/candidates/${PIERRE.id}/erasure`, { auth: a.apiKey, body: {} });
    assert.equal(joined.status, 200);
    assert.equal(joined.body.id, started.body.id);

    await t.database.db.raw('drop trigger hi_test_refuse on hi_profile_applications');
    await t.database.db.raw('drop function hi_test_refuse');
    const done = await waitErasure(a, PIERRE.id, started.body.id);
    // The stores done before the failure were not run again (their counts stand); the rest finished.
    assert.equal(done.stores.profile_snapshots, 1);
    assert.equal(done.stores.applications, 1);
    assert.equal((await t.database.db('hi_profile_applications').where({ organization_id: a.organizationId, profile_user_id: PIERRE.id })).length, 0);
  });
});
