/**
 * The connect flow, imports, refresh and failures against a real authorization server
 * nobody here wrote (oidc-provider, on a free port, its login and consent forms driven
 * over HTTP) and a resource server that introspects every token at it.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, statSync } from 'node:fs';
import { TEST_LOG_FILE } from '../helpers/log-capture';
import { browse, CookieJar, enableProfileApply, QUESTIONS, waitFor } from '../helpers/profile-flow';
import { connectThroughProvider, MARIE, startOidcProvider, type Candidate, type OidcHarness } from '../helpers/oidc-provider';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStandaloneHost, type StandaloneHost } from '../../src/standalone/host/standalone-host';
import { testLogger } from '../helpers/log-capture';
import { request, startTestHost, type TestHost } from '../helpers/test-host';

const ORIGIN = 'https://jobs.curie.example';
const ANSWERS = { years_experience: 12, work_authorization: true };
const PIERRE: Candidate = {
  ...MARIE,
  id: 'usr_oidc2Pierre3Curie',
  name: 'Pierre Curie',
  positions: [{ title: 'Professor', company: 'Sorbonne', start_date: '2012-01-01', end_date: null }],
};
/** A provider account whose profile has an impossible date: an answer we refuse. */
const NOBODY: Candidate = {
  ...MARIE,
  id: 'mcurie-42',
  name: 'M. Curie',
  positions: [{ title: 'Assistant', company: 'Sorbonne', start_date: '1903-02-30', end_date: null }],
};
const IRENE: Candidate = { ...MARIE, id: 'usr_oidc3Irene4Joliot', name: 'Irène Joliot-Curie', positions: [] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Access tokens of the refresh tests live this long, then expire for real at the provider. */
const SHORT_TTL_S = 4;
const untilExpired = () => sleep(SHORT_TTL_S * 1000 + 100);

/** Log lines written from now on. */
function logFrom(): () => string[] {
  const start = statSync(TEST_LOG_FILE).size;
  return () => readFileSync(TEST_LOG_FILE).subarray(start).toString('utf8').split('\n').filter(Boolean);
}

interface Site {
  t: TestHost;
  org: { organizationId: string; apiKey: string };
  listings: string[];
}

async function openSite(env: Record<string, string>, listings = 1): Promise<Site> {
  const t = await startTestHost({ env });
  const org = await t.createOrganization('Curie Labs');
  const ids: string[] = [];
  for (let i = 0; i < listings; i++)
    ids.push((await t.host.listings.create({ organizationId: org.organizationId, title: `Physicist ${i}`, questions: QUESTIONS })).id);
  await enableProfileApply(t, org.apiKey, [ORIGIN]);
  return { t, org, listings: ids };
}

const callback = (t: TestHost) => `${t.baseUrl}/v1/connect/profile/callback`;

describe('profile provider: a real OpenID Connect provider (oidc-provider)', function () {
  this.timeout(90_000);

  describe('client_secret_basic, discovery, prompt=consent, rotating refresh tokens', () => {
    let oidc: OidcHarness;
    let site: Site;
    /** On PostgreSQL, a second API process (its own plugin activation and pool) over the same database. */
    let second: { host: StandaloneHost; server: Server; url: string } | undefined;
    const authorization = (id: string) =>
      site.t.database.db('hi_candidate_authorizations').where({ organization_id: site.org.organizationId, profile_user_id: id }).first();
    const snapshot = (id: string) =>
      site.t.database.db('hi_profile_snapshots').where({ organization_id: site.org.organizationId, profile_user_id: id }).first();
    /** The snapshot is a day old, so the next apply must import (and so use the token). */
    const ageSnapshot = (id: string) =>
      site.t.database
        .db('hi_profile_snapshots')
        .where({ organization_id: site.org.organizationId, profile_user_id: id })
        .update({ imported_at: new Date(Date.now() - 25 * 3600_000) });
    const apply = (listingId: string, id: string, baseUrl = site.t.baseUrl) =>
      request(baseUrl, 'POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
        auth: site.org.apiKey,
        body: { profile_user_id: id, answers: ANSWERS },
      });
    const connect = async (candidate: Candidate) => {
      const run = await connectThroughProvider(site.t.baseUrl, {
        organizationId: site.org.organizationId,
        listingId: site.listings[0]!,
        origin: ORIGIN,
        login: candidate.id,
      });
      assert.equal(run.result?.message.type, 'profile-apply:authorized', JSON.stringify(run.result?.message));
      await waitFor(() => snapshot(candidate.id), `the import of ${candidate.name}`);
      return run;
    };

    before(async () => {
      oidc = await startOidcProvider({ tokenAuthMethod: 'client_secret_basic', rotateRefreshTokens: true, candidates: [MARIE, PIERRE, IRENE] });
      site = await openSite(
        {
          PROFILE_PROVIDER_ISSUER: oidc.issuer,
          PROFILE_PROVIDER_PROFILE_URL: `${oidc.apiUrl}/v1/profile`,
          PROFILE_PROVIDER_CLIENT_ID: oidc.clientId,
          PROFILE_PROVIDER_CLIENT_SECRET: oidc.clientSecret,
          PROFILE_PROVIDER_SCOPES: 'openid profile offline_access',
          PROFILE_PROVIDER_AUTHORIZE_PARAMS: 'prompt=consent',
        },
        4,
      );
      await oidc.register([callback(site.t)]);
      if (site.t.config.databaseUrl) {
        const host = await createStandaloneHost({ config: site.t.config, logger: testLogger(), runWorkers: false });
        const server = createServer(host.app);
        server.listen(0, '127.0.0.1');
        await new Promise((resolve) => server.once('listening', resolve));
        second = { host, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
      }
    });
    after(async () => {
      if (second) {
        second.server.closeAllConnections();
        await new Promise((resolve) => second!.server.close(resolve));
        await second.host.close();
      }
      await site?.t.close();
      await oidc?.close();
    });

    it('the provider takes only HTTP Basic client authentication', async () => {
      const response = await fetch(`${oidc.issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: oidc.clientId, client_secret: oidc.clientSecret }).toString(),
      });
      assert.equal(response.status, 401);
      assert.equal(((await response.json()) as { error: string }).error, 'invalid_client');
    });

    it('connects through discovery with prompt=consent, and the provider issues a refresh token', async () => {
      const run = await connect(MARIE);
      assert.equal(`${run.authorizeUrl.origin}${run.authorizeUrl.pathname}`, `${oidc.issuer}/auth`, 'the discovered authorization endpoint');
      assert.equal(run.authorizeUrl.searchParams.get('prompt'), 'consent');
      assert.equal(run.authorizeUrl.searchParams.get('scope'), 'openid profile offline_access');
      assert.equal(run.authorizeUrl.searchParams.get('code_challenge_method'), 'S256');
      assert.equal(oidc.tokenRequests.authorization_code, 1);
      const stored = await authorization(MARIE.id);
      assert.ok(stored.refresh_token_ciphertext, 'a refresh token is stored');
      assert.ok(stored.access_token_expires_at, 'the expiry is known');
      const imported = await snapshot(MARIE.id);
      assert.equal(imported.name, MARIE.name);
    });

    it('the start page’s query cannot change where or how the candidate is sent', async () => {
      const query = new URLSearchParams({
        organization_id: site.org.organizationId,
        listing_id: site.listings[0]!,
        origin: ORIGIN,
        authorize_url: 'https://evil.example/authorize',
        scope: 'admin',
        redirect_uri: 'https://evil.example/cb',
      });
      const start = await browse(new CookieJar(), `${site.t.baseUrl}/v1/connect/profile?${query}`);
      assert.equal(start.status, 302);
      const location = new URL(start.location!);
      assert.equal(`${location.origin}${location.pathname}`, `${oidc.issuer}/auth`);
      assert.equal(location.searchParams.get('scope'), 'openid profile offline_access');
      assert.equal(location.searchParams.get('redirect_uri'), callback(site.t));
    });

    it('work history reaches the application API, the pipeline and application.submitted, newest first', async () => {
      const applied = await apply(site.listings[0]!, MARIE.id);
      assert.equal(applied.status, 201, applied.text);
      // SPEC 4.1 keeps its exact shape.
      assert.deepEqual(Object.keys(applied.body).sort(), [
        'application_id',
        'experience_summary',
        'imported_credentials',
        'imported_skills',
        'profile_url',
        'status',
      ]);
      assert.deepEqual(applied.body.imported_skills, ['Radiochemistry', 'Spectroscopy']);
      assert.equal(applied.body.experience_summary.current_company, 'University of Paris');
      const expected = [
        { title: 'Professor', company: 'University of Paris', start_date: '2015-11-01', end_date: null, verified: true },
        { title: 'Lecturer', company: 'École normale supérieure', start_date: '2010-09-01', end_date: '2015-10-31', verified: false },
        { title: 'Research assistant', company: 'Lippmann Laboratory', start_date: '2008-02-01', end_date: '2010-08-31' },
      ];
      const id = applied.body.application_id as string;
      const read = await site.t.request('GET', `/v1/opportunities/applications/${id}`, { auth: site.org.apiKey });
      assert.deepEqual(read.body.work_history, expected);
      const list = await site.t.request('GET', `/v1/opportunities/listings/${site.listings[0]}/applications`, { auth: site.org.apiKey });
      assert.deepEqual(list.body.data.find((a: { application_id: string }) => a.application_id === id).work_history, expected);
      const delivered = await waitFor(
        async () => (await site.t.host.pipeline.listForOrganization(site.org.organizationId)).find((e) => e.applicationId === id),
        'pipeline delivery',
      );
      assert.deepEqual(delivered.application.workHistory, expected);
      const event = await waitFor(
        async () => site.t.host.hooks.recent.find((e) => e.hook === 'application.submitted' && e.payload.application_id === id),
        'application.submitted',
      );
      assert.deepEqual(event.payload.work_history, expected);
    });

    it('an expired access token is refreshed on apply, once', async () => {
      oidc.accessTokenTtlSeconds = SHORT_TTL_S;
      await connect(PIERRE);
      await ageSnapshot(PIERRE.id);
      const before = oidc.tokenRequests.refresh_token ?? 0;
      await untilExpired();
      const applied = await apply(site.listings[0]!, PIERRE.id);
      assert.equal(applied.status, 201, applied.text);
      assert.equal((oidc.tokenRequests.refresh_token ?? 0) - before, 1, 'one refresh request');
      assert.equal(oidc.tokenErrors.invalid_grant, undefined);
    });

    it('10 concurrent applies after expiry with rotation on (over two API processes on PostgreSQL): one refresh reaches the provider, one 201 and nine 409, nobody locked out', async () => {
      await ageSnapshot(PIERRE.id);
      await untilExpired();
      const before = oidc.tokenRequests.refresh_token ?? 0;
      const processes = second ? [site.t.baseUrl, second.url] : [site.t.baseUrl];
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => apply(site.listings[1]!, PIERRE.id, processes[i % processes.length])));
      const statuses = answers.map((a) => a.status).sort();
      assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409, 409, 409], answers.map((a) => a.text).join('\n'));
      const created = answers.find((a) => a.status === 201)!.body.application_id;
      for (const duplicate of answers.filter((a) => a.status === 409)) assert.equal(duplicate.body.error.application_id, created);
      assert.equal((oidc.tokenRequests.refresh_token ?? 0) - before, 1, 'exactly one refresh request reached the provider');
      assert.equal(oidc.tokenErrors.invalid_grant, undefined, 'no refresh token was used twice');
      // Still authorized: the rotated refresh token was stored and works (we take the
      // token for expired rather than wait for it again).
      await ageSnapshot(PIERRE.id);
      await site.t.database
        .db('hi_candidate_authorizations')
        .where({ profile_user_id: PIERRE.id })
        .update({ access_token_expires_at: new Date(Date.now() - 1000) });
      const later = await apply(site.listings[2]!, PIERRE.id);
      assert.equal(later.status, 201, later.text);
      assert.equal((oidc.tokenRequests.refresh_token ?? 0) - before, 2, 'refreshed with the rotated refresh token');
      assert.equal(oidc.tokenErrors.invalid_grant, undefined);
    });

    it('a refresh the provider refuses (invalid_grant) ends the authorization: profile_not_authorized, and the log says so', async () => {
      await connect(IRENE);
      // Revoked at the provider: the resource server answers 401, the refresh invalid_grant.
      await oidc.revokeGrants(IRENE.id);
      await ageSnapshot(IRENE.id);
      const log = logFrom();
      const applied = await apply(site.listings[0]!, IRENE.id);
      assert.equal(applied.status, 403, applied.text);
      assert.equal(applied.body.error.code, 'profile_not_authorized');
      assert.ok((oidc.tokenErrors.invalid_grant ?? 0) >= 1, 'the provider refused the refresh');
      assert.equal(await authorization(IRENE.id), undefined, 'the authorization is ended');
      assert.ok(
        log().some((line) => line.includes('refused the refresh token') && line.includes(IRENE.id)),
        'logged',
      );
      // Nothing more is asked of the provider for it.
      const again = await apply(site.listings[1]!, IRENE.id);
      assert.equal(again.body.error.code, 'profile_not_authorized');
      oidc.accessTokenTtlSeconds = 3600;
    });
  });

  describe('client_secret_post, explicit endpoints, a differently shaped profile API', () => {
    let oidc: OidcHarness;
    let site: Site;
    let misconfigured: Site;

    before(async () => {
      oidc = await startOidcProvider({ tokenAuthMethod: 'client_secret_post', candidates: [MARIE, NOBODY] });
      const env = {
        PROFILE_PROVIDER_AUTHORIZE_URL: `${oidc.issuer}/auth`,
        PROFILE_PROVIDER_TOKEN_URL: `${oidc.issuer}/token`,
        PROFILE_PROVIDER_PROFILE_URL: `${oidc.apiUrl}/api/me`,
        PROFILE_PROVIDER_CLIENT_ID: oidc.clientId,
        PROFILE_PROVIDER_CLIENT_SECRET: oidc.clientSecret,
        PROFILE_PROVIDER_SCOPES: 'openid,profile',
        PROFILE_PROVIDER_SCOPE_DELIMITER: 'space',
        PROFILE_PROVIDER_PROFILE_MAPPING: JSON.stringify({
          id: 'account.user_id',
          name: 'account.display_name',
          headline: 'account.tagline',
          profile_url: 'account.links.public',
          skills: { path: 'expertise', name: 'label', verified: 'confirmed' },
          credentials: { path: 'certifications', title: 'name', issuer: 'authority', verified: 'is_verified', issued_at: 'awarded_on' },
          positions: { path: 'employment', title: 'role', company: 'employer.name', start_date: 'from', end_date: 'to', verified: 'confirmed' },
        }),
      };
      site = await openSite({ ...env, PROFILE_PROVIDER_TOKEN_AUTH_METHOD: 'client_secret_post' });
      // The same provider, but this operator left the default (HTTP Basic) in place.
      misconfigured = await openSite(env);
      await oidc.register([callback(site.t), callback(misconfigured.t)]);
    });
    after(async () => {
      await site?.t.close();
      await misconfigured?.t.close();
      await oidc?.close();
    });

    it('the provider takes only client_secret_post', async () => {
      const response = await fetch(`${oidc.issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${oidc.clientId}:${oidc.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x' }).toString(),
      });
      assert.equal(response.status, 401);
    });

    it('connects with client_secret_post and imports through the profile mapping', async () => {
      const run = await connectThroughProvider(site.t.baseUrl, {
        organizationId: site.org.organizationId,
        listingId: site.listings[0]!,
        origin: ORIGIN,
        login: MARIE.id,
      });
      assert.equal(run.result?.message.type, 'profile-apply:authorized', JSON.stringify(run.result?.message));
      assert.equal(run.result?.message.candidate.name, MARIE.name);
      assert.equal(run.authorizeUrl.searchParams.get('scope'), 'openid profile');
      const applied = await site.t.request('POST', `/v1/opportunities/listings/${site.listings[0]}/applications/profile`, {
        auth: site.org.apiKey,
        body: { profile_user_id: MARIE.id, answers: ANSWERS },
      });
      assert.equal(applied.status, 201, applied.text);
      assert.deepEqual(applied.body.imported_skills, ['Radiochemistry', 'Spectroscopy']);
      assert.deepEqual(applied.body.imported_credentials, [
        { title: 'Nobel Prize in Physics', issuer: 'Royal Swedish Academy of Sciences', verified: true, issued_at: '1903-12-10' },
      ]);
      assert.equal(applied.body.profile_url, `https://profiles.example/${MARIE.id}`);
      const read = await site.t.request('GET', `/v1/opportunities/applications/${applied.body.application_id}`, { auth: site.org.apiKey });
      assert.deepEqual(
        read.body.work_history.map((p: { company: string; verified?: boolean }) => [p.company, p.verified]),
        [
          ['University of Paris', true],
          ['École normale supérieure', false],
          ['Lippmann Laboratory', undefined],
        ],
      );
    });

    it('a profile answer we refuse: provider_error for the candidate, the provider’s field named in the log, nothing stored', async () => {
      const log = logFrom();
      const run = await connectThroughProvider(site.t.baseUrl, {
        organizationId: site.org.organizationId,
        listingId: site.listings[0]!,
        origin: ORIGIN,
        login: NOBODY.id,
      });
      assert.equal(run.result?.message.code, 'provider_error');
      const lines = log().filter((l) => l.includes('unusable answer'));
      assert.equal(lines.length, 1, 'logged once');
      assert.equal(JSON.parse(lines[0]!).provider.problem, 'profile field employment[0].from: a YYYY-MM-DD date');
      assert.equal(await site.t.database.db('hi_candidate_authorizations').whereNot({ profile_user_id: MARIE.id }).first(), undefined);
    });

    it('a provider refusing our client: a distinct code for the candidate, an operator-facing log line', async () => {
      const log = logFrom();
      const run = await connectThroughProvider(misconfigured.t.baseUrl, {
        organizationId: misconfigured.org.organizationId,
        listingId: misconfigured.listings[0]!,
        origin: ORIGIN,
        login: MARIE.id,
      });
      assert.equal(run.result?.message.type, 'profile-apply:error');
      assert.equal(run.result?.message.code, 'provider_client_rejected');
      assert.doesNotMatch(run.result!.message.message, /client_secret|invalid_client/i, 'the candidate is not told the configuration details');
      const line = log().find((l) => l.includes('refused our client'));
      assert.ok(line, 'an operator-facing log line');
      const entry = JSON.parse(line);
      assert.equal(entry.level, 'error');
      assert.equal(entry.provider.error, 'invalid_client');
      assert.match(entry.msg, /PROFILE_PROVIDER_TOKEN_AUTH_METHOD/);
      assert.equal(await misconfigured.t.database.db('hi_candidate_authorizations').first(), undefined);
    });
  });
});
