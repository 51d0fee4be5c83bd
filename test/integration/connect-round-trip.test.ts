/**
 * The OAuth round trip over HTTP through grant against the sandbox provider: state and
 * PKCE (S256) on the way out, consent, code exchange, encrypted tokens at rest, the
 * posted message to the exact origin, the import job, and an application with the token.
 */
import { strict as assert } from 'node:assert';
import { rememberSecret } from '../helpers/log-capture';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { ADA, browse, CookieJar, enableProfileApply, GRACE, popupResult, QUESTIONS, returnUrl, runConnect, waitFor } from '../helpers/profile-flow';

describe('connect: OAuth round trip through grant against the sandbox', function () {
  this.timeout(60_000);
  let t: TestHost;
  let org: { organizationId: string; apiKey: string };
  let listingId: string;
  const origin = 'https://jobs.acme.example';

  before(async () => {
    t = await startTestHost();
    org = await t.createOrganization('Acme');
    listingId = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Backend Engineer', questions: QUESTIONS })).id;
    await enableProfileApply(t, org.apiKey, [origin]);
  });
  after(() => t?.close());

  it('authorizes, posts the result to the exact origin, imports, and lets the candidate apply', async () => {
    const run = await runConnect(t, { organizationId: org.organizationId, listingId, origin, button: `Authorize as ${ADA.name}` });

    // Out to the provider: state and PKCE S256, our registered callback, a session cookie.
    const auth = run.authorizeUrl;
    assert.equal(`${auth.origin}${auth.pathname}`, `${t.baseUrl}/sandbox/oauth/authorize`);
    assert.equal(auth.searchParams.get('response_type'), 'code');
    assert.equal(auth.searchParams.get('code_challenge_method'), 'S256');
    assert.match(auth.searchParams.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
    assert.ok((auth.searchParams.get('state') ?? '').length >= 32);
    assert.equal(auth.searchParams.get('redirect_uri'), `${t.baseUrl}/v1/connect/profile/callback`);
    assert.equal(auth.searchParams.get('scope'), 'profile skills credentials experience');
    const cookie = run.start.headers.getSetCookie().find((c) => c.startsWith('hi_connect='));
    assert.ok(cookie, 'the flow keeps a session cookie');
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /SameSite=Lax/i);
    assert.match(cookie, /Path=\/v1\/connect/);
    assert.ok(!/Secure/i.test(cookie), 'not Secure on an http BASE_URL');

    // The consent page: who asks, what is shared, one button per candidate and Deny.
    assert.match(run.consent.text, /<strong>Acme<\/strong> wants to read your profile/);
    assert.match(run.consent.text, /For your application to <strong>Backend Engineer<\/strong>, through <strong>Hiring Integrations<\/strong>/);
    assert.match(run.consent.text, /skills and whether each is verified/);
    assert.deepEqual(
      [...run.consentForm.buttons.keys()],
      ['Authorize as Ada Lovelace', 'Authorize as Grace Hopper', 'Authorize as Alan Turing', 'Authorize as Katherine Johnson', 'Deny'],
    );
    assert.equal(run.callbackUrl!.searchParams.get('state'), auth.searchParams.get('state'));

    // Back at the callback: a page that posts to exactly the listing page's origin.
    assert.equal(run.callback!.status, 200);
    const csp = run.callback!.headers.get('content-security-policy')!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, csp);
    assert.match(csp, /default-src 'none'/);
    assert.ok(run.callback!.text.includes(`<script nonce="${nonce}">`));
    assert.match(run.callback!.text, /window\.opener\.postMessage\(r\.message,r\.target_origin\)/);
    assert.ok(!run.callback!.text.includes("'*'"));
    const { target_origin, message } = run.result!;
    assert.equal(target_origin, origin);
    assert.equal(message.source, 'hiring-integrations');
    assert.equal(message.type, 'profile-apply:authorized');
    assert.match(message.candidate_token, /^hic_/);
    assert.equal(message.profile_user_id, ADA.id);
    assert.equal(message.organization_id, org.organizationId);
    assert.equal(message.listing_id, listingId);
    assert.deepEqual(message.candidate, {
      name: 'Ada Lovelace',
      headline: 'Staff Backend Engineer · distributed systems and data pipelines',
      profile_url: `${t.baseUrl}/sandbox/profiles/${ADA.id}`,
      // The provider's verified email claim: the widget prefills its contact field with it.
      email: 'ada.lovelace@sandbox.example',
    });
    const expiresIn = Date.parse(message.expires_at) - Date.now();
    assert.ok(expiresIn > 29 * 60_000 && expiresIn <= 30 * 60_000, `expires in 30 minutes (${expiresIn})`);

    // Tokens at rest are AES-GCM ciphertexts, never the tokens themselves.
    const rows = await t.database.db('hi_candidate_authorizations').where({ organization_id: org.organizationId, profile_user_id: ADA.id });
    assert.equal(rows.length, 1);
    assert.match(rows[0].access_token_ciphertext, /^v1\./);
    assert.ok(!rows[0].access_token_ciphertext.includes('sbxat_'));
    assert.ok(rows[0].refresh_token_ciphertext && !rows[0].refresh_token_ciphertext.includes('sbxrt_'));
    // The flow's session is gone: the callback cannot be replayed.
    assert.equal((await t.database.db('hi_oauth_sessions')).length, 0);

    // The import job stores the snapshot (verified skills only, merged experience).
    const snapshot = await waitFor(
      () => t.database.db('hi_profile_snapshots').where({ organization_id: org.organizationId, profile_user_id: ADA.id }).first(),
      'the profile import',
    );
    const skills = typeof snapshot.skills === 'string' ? JSON.parse(snapshot.skills) : snapshot.skills;
    assert.deepEqual(skills, ['TypeScript', 'PostgreSQL', 'Go']);

    // The widget applies with the candidate token.
    const applied = await t.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
      auth: message.candidate_token,
      body: { profile_user_id: ADA.id, cover_letter: 'Hello', answers: { years_experience: 9, work_authorization: true } },
    });
    assert.equal(applied.status, 201, applied.text);
    assert.match(applied.body.application_id, /^app_/);
    assert.equal(applied.body.status, 'submitted');
    assert.deepEqual(applied.body.imported_skills, ['TypeScript', 'PostgreSQL', 'Go']);
    assert.equal(applied.body.experience_summary.current_title, 'Staff Engineer');
    assert.equal(applied.body.experience_summary.current_company, 'Northwind Logistics');
    assert.equal(applied.body.profile_url, `${t.baseUrl}/sandbox/profiles/${ADA.id}`);
    assert.deepEqual(Object.keys(applied.body).sort(), [
      'application_id',
      'experience_summary',
      'imported_credentials',
      'imported_skills',
      'profile_url',
      'status',
    ]);

    // Delivered to the host pipeline, announced on the hook bus.
    const entry = await waitFor(
      async () => (await t.host.pipeline.listForOrganization(org.organizationId)).find((e) => e.applicationId === applied.body.application_id),
      'pipeline delivery',
    );
    assert.deepEqual(entry.application.importedSkills, ['TypeScript', 'PostgreSQL', 'Go']);
    await waitFor(
      async () => t.host.hooks.recent.find((e) => e.hook === 'application.submitted' && e.payload.application_id === applied.body.application_id),
      'application.submitted',
    );

    // The candidate token is for this listing and candidate only.
    const other = await t.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
      auth: message.candidate_token,
      body: { profile_user_id: GRACE.id, answers: { years_experience: 1, work_authorization: true } },
    });
    assert.equal(other.status, 403);
    assert.equal(other.body.error.code, 'candidate_session_mismatch');
    // …and not for the organization's other endpoints.
    const read = await t.request('GET', `/v1/opportunities/applications/${applied.body.application_id}`, { auth: message.candidate_token });
    assert.equal(read.status, 403);
  });

  it('a replayed callback is refused without posting anything', async () => {
    const run = await runConnect(t, { organizationId: org.organizationId, listingId, origin, button: `Authorize as ${GRACE.name}` });
    assert.equal(run.result?.message.type, 'profile-apply:authorized');
    const replay = await browse(run.jar, run.callbackUrl!.toString());
    assert.equal(replay.status, 400);
    assert.equal(popupResult(replay.text), undefined);
    assert.match(replay.headers.get('content-security-policy')!, /script-src 'none'/);
    assert.match(replay.text, /state_mismatch/);
  });

  it('a tampered state is a state_mismatch posted to the origin, and no authorization is stored', async () => {
    const run = await runConnect(t, {
      organizationId: org.organizationId,
      listingId,
      origin,
      button: `Authorize as ${'Alan Turing'}`,
      tamper: (url) => url.searchParams.set('state', 'f'.repeat(40)),
    });
    assert.equal(run.result?.target_origin, origin);
    assert.equal(run.result?.message.type, 'profile-apply:error');
    assert.equal(run.result?.message.code, 'state_mismatch');
    assert.equal((await t.database.db('hi_candidate_authorizations').where({ profile_user_id: 'usr_sbx2Alan5Turing' })).length, 0);
  });

  it('an origin removed while the candidate consents gets no result, and nothing is stored', async () => {
    const other = await t.createOrganization('Umbrella');
    const otherListing = (await t.host.listings.create({ organizationId: other.organizationId, title: 'Chemist', questions: [] })).id;
    await enableProfileApply(t, other.apiKey, [origin]);
    const run = await runConnect(t, {
      organizationId: other.organizationId,
      listingId: otherListing,
      origin,
      button: `Authorize as ${GRACE.name}`,
      tamper: async () => {
        const removed = await t.request('PATCH', '/v1/organization/settings', {
          auth: other.apiKey,
          body: { profile_apply: { allowed_origins: ['https://elsewhere.example'] } },
        });
        assert.equal(removed.status, 200, removed.text);
      },
    });
    assert.equal(run.callback?.status, 400);
    assert.equal(run.result, undefined, 'nothing is posted to an origin that is no longer trusted');
    assert.match(run.callback!.text, /origin_not_allowed/);
    assert.equal((await t.database.db('hi_candidate_authorizations').where({ organization_id: other.organizationId })).length, 0);
  });

  it('a callback in a browser without the flow cookie cannot complete', async () => {
    const run = await runConnect(t, {
      organizationId: org.organizationId,
      listingId,
      origin,
      button: 'Authorize as Katherine Johnson',
      tamper: () => undefined,
    });
    assert.equal(run.result?.message.type, 'profile-apply:authorized');
    // Another browser (no cookie) presenting a fresh code and state gets nowhere.
    const second = await runConnectStartOnly(t, org.organizationId, listingId, origin);
    const stranger = await browse(new CookieJar(), second.toString());
    assert.equal(stranger.status, 400);
    assert.equal(popupResult(stranger.text), undefined);
  });

  it('Deny reaches the opener as consent_denied', async () => {
    const run = await runConnect(t, { organizationId: org.organizationId, listingId, origin, button: 'Deny' });
    assert.equal(run.callbackUrl!.searchParams.get('error'), 'access_denied');
    assert.equal(run.result?.target_origin, origin);
    assert.deepEqual({ type: run.result?.message.type, code: run.result?.message.code }, { type: 'profile-apply:error', code: 'consent_denied' });
  });

  describe('redirect mode (the browser blocked the popup)', () => {
    const CLIENT_STATE = 'cs_0123456789abcdefABCDEF';
    const returnTo = `${origin}/jobs/42?ref=board`;
    before(async () => {
      const registered = await t.request('PATCH', '/v1/organization/settings', { auth: org.apiKey, body: { profile_apply: { return_urls: [returnTo] } } });
      assert.equal(registered.status, 200, registered.text);
      assert.deepEqual(registered.body.profile_apply.return_urls, [returnTo]);
    });
    const fromFragment = (html: string | undefined) => {
      const url = new URL(returnUrl(html ?? '')!);
      const match = /^#profile-apply-result=([A-Za-z0-9_-]+)$/.exec(url.hash);
      assert.ok(match, `a result fragment in ${url.hash.slice(0, 60)}`);
      return { page: `${url.origin}${url.pathname}${url.search}`, result: JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8')) };
    };
    const exchange = (code: string, clientState: string, from = origin) =>
      browse(new CookieJar(), `${t.baseUrl}/v1/connect/profile/result`, {
        method: 'POST',
        form: { code, client_state: clientState },
        headers: { origin: from },
      });

    it('authorizes and returns to the listing page with a single-use code (no token in the URL), exchanged once by the page for the result', async () => {
      const run = await runConnect(t, {
        organizationId: org.organizationId,
        listingId,
        origin,
        button: 'Authorize as Alan Turing',
        redirect: { returnTo, clientState: CLIENT_STATE },
      });
      assert.equal(run.start.status, 302, run.start.text.slice(0, 200));
      assert.equal(run.callback?.status, 200);
      assert.equal(run.callback?.headers.get('cache-control'), 'no-store');
      assert.equal(run.callback?.headers.get('referrer-policy'), 'no-referrer');
      assert.equal(run.result, undefined, 'nothing is posted to an opener');
      assert.doesNotMatch(run.callback!.text, /hic_/, 'no candidate token in the page or its URL');
      const { page, result } = fromFragment(run.callback?.text);
      assert.equal(page, returnTo, 'back to the page it came from');
      assert.deepEqual(Object.keys(result).sort(), ['client_state', 'code']);
      assert.equal(result.client_state, CLIENT_STATE);
      rememberSecret(result.code);
      // Another page (origin), or another nonce, gets nothing, and does not use the code up.
      assert.equal((await exchange(result.code, CLIENT_STATE, 'https://evil.example')).status, 400);
      assert.equal((await exchange(result.code, 'cs_another_nonce_0123456789')).status, 400);
      const exchanged = await exchange(result.code, CLIENT_STATE);
      assert.equal(exchanged.status, 200, exchanged.text);
      assert.equal(exchanged.headers.get('access-control-allow-origin'), origin);
      const message = JSON.parse(exchanged.text);
      rememberSecret(message.candidate_token);
      assert.equal(message.type, 'profile-apply:authorized');
      assert.equal(message.organization_id, org.organizationId);
      assert.equal(message.listing_id, listingId);
      assert.equal(message.profile_user_id, 'usr_sbx2Alan5Turing');
      assert.match(message.candidate_token, /^hic_/);
      // Single use.
      const again = await exchange(result.code, CLIENT_STATE);
      assert.equal(again.status, 400);
      assert.equal(JSON.parse(again.text).error.code, 'invalid_result_code');
      // The stored result holds no token.
      assert.doesNotMatch(JSON.stringify(await t.database.db('hi_connect_results').select('*')), /hic_/);
      assert.equal(
        (await t.database.db('hi_candidate_authorizations').where({ organization_id: org.organizationId, profile_user_id: 'usr_sbx2Alan5Turing' })).length,
        1,
      );
    });

    it('a denied consent returns to the page as consent_denied', async () => {
      const run = await runConnect(t, {
        organizationId: org.organizationId,
        listingId,
        origin,
        button: 'Deny',
        redirect: { returnTo, clientState: CLIENT_STATE },
      });
      const { result } = fromFragment(run.callback?.text);
      const exchanged = JSON.parse((await exchange(result.code, CLIENT_STATE)).text);
      assert.deepEqual({ type: exchanged.type, code: exchanged.code }, { type: 'profile-apply:error', code: 'consent_denied' });
    });

    it('starts only from a POST of the listing page itself, back to a registered URL exactly; otherwise shows an error and redirects nowhere', async () => {
      const form = { organization_id: org.organizationId, listing_id: listingId, origin };
      const cases: { what: string; method: 'GET' | 'POST'; fields: Record<string, string>; from?: string }[] = [
        { what: 'a link (GET), even to a registered URL', method: 'GET', fields: { return_to: returnTo, client_state: CLIENT_STATE } },
        { what: 'a POST from another page', method: 'POST', fields: { return_to: returnTo, client_state: CLIENT_STATE }, from: 'https://evil.example' },
        { what: 'a POST without Origin', method: 'POST', fields: { return_to: returnTo, client_state: CLIENT_STATE }, from: '' },
        {
          what: 'an unregistered page on the origin (an open redirect there)',
          method: 'POST',
          fields: { return_to: `${origin}/redirect?to=https://evil.example`, client_state: CLIENT_STATE },
        },
        { what: 'the registered page with another query', method: 'POST', fields: { return_to: `${origin}/jobs/42?ref=other`, client_state: CLIENT_STATE } },
        { what: 'another origin', method: 'POST', fields: { return_to: 'https://evil.example/jobs', client_state: CLIENT_STATE } },
        { what: 'javascript:', method: 'POST', fields: { return_to: 'javascript:alert(1)', client_state: CLIENT_STATE } },
        { what: 'no client_state', method: 'POST', fields: { return_to: returnTo } },
        { what: 'a short client_state', method: 'POST', fields: { return_to: returnTo, client_state: 'short' } },
        { what: 'no return_to', method: 'POST', fields: { client_state: CLIENT_STATE } },
      ];
      for (const c of cases) {
        const headers: Record<string, string> = c.from === '' ? {} : { origin: c.from ?? origin };
        const response =
          c.method === 'GET'
            ? await browse(new CookieJar(), `${t.baseUrl}/v1/connect/profile?${new URLSearchParams({ ...form, ...c.fields })}`)
            : await browse(new CookieJar(), `${t.baseUrl}/v1/connect/profile`, { method: 'POST', form: { ...form, ...c.fields }, headers });
        assert.equal(response.status, 400, c.what);
        assert.equal(response.location, undefined, c.what);
        assert.equal(returnUrl(response.text), undefined, c.what);
        assert.match(response.text, /invalid_return_to/, c.what);
        assert.equal(popupResult(response.text), undefined, c.what);
      }
    });

    it('return_urls must be pages on allowed origins, without fragment or credentials', async () => {
      for (const bad of [['https://other.example/jobs'], [`${origin}/jobs#x`], [`https://user:pw@${origin.slice(8)}/jobs`], ['not a url']]) {
        const response = await t.request('PATCH', '/v1/organization/settings', { auth: org.apiKey, body: { profile_apply: { return_urls: bad } } });
        assert.equal(response.status, 400, `${bad[0]}: ${response.text}`);
        assert.match(response.body.error.param, /^profile_apply\.return_urls\.0$/);
      }
    });
  });

  it('the provider failing the token exchange (503) is provider_unavailable', async () => {
    const fault = await t.request('POST', '/sandbox/faults', { auth: t.operatorKey, body: { target: 'token', mode: 'status', status: 503, times: 1 } });
    assert.equal(fault.status, 201, fault.text);
    const run = await runConnect(t, { organizationId: org.organizationId, listingId, origin, button: `Authorize as ${ADA.name}` });
    assert.equal(run.result?.message.code, 'provider_unavailable');
    assert.equal(run.result?.target_origin, origin);
  });

  it('the sandbox token endpoint enforces PKCE, single use and the redirect URI', async () => {
    const { createHash, randomBytes } = await import('node:crypto');
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const redirectUri = `${t.baseUrl}/v1/connect/profile/callback`;
    const jar = new CookieJar();
    const code = async () => {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: 'hiring-integrations-sandbox',
        redirect_uri: redirectUri,
        state: 's1',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        scope: 'profile skills',
      });
      const page = await browse(jar, `${t.baseUrl}/sandbox/oauth/authorize?${query}`);
      const form = (await import('../helpers/profile-flow')).parseConsentForm(page.text, t.baseUrl);
      const button = form.buttons.get('Authorize as Grace Hopper')!;
      const hop = await browse(jar, form.action, { method: 'POST', form: { ...form.hidden, [button.name]: button.value } });
      return new URL(hop.location!).searchParams.get('code')!;
    };
    const { deriveKey } = await import('../../src/platform/security/key-derivation');
    const secret = deriveKey(t.config.secretKey, 'sandbox-client-secret').toString('base64url');
    const exchange = (form: Record<string, string>) =>
      fetch(`${t.baseUrl}/sandbox/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: 'hiring-integrations-sandbox',
          client_secret: secret,
          redirect_uri: redirectUri,
          ...form,
        }),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

    const wrongVerifier = await exchange({ code: await code(), code_verifier: randomBytes(32).toString('base64url') });
    assert.deepEqual([wrongVerifier.status, wrongVerifier.body.error], [400, 'invalid_grant']);
    const noVerifier = await exchange({ code: await code() });
    assert.deepEqual([noVerifier.status, noVerifier.body.error], [400, 'invalid_request']);
    const fresh = await code();
    const wrongRedirect = await exchange({ code: fresh, code_verifier: verifier, redirect_uri: `${t.baseUrl}/elsewhere` });
    assert.deepEqual([wrongRedirect.status, wrongRedirect.body.error], [400, 'invalid_grant']);
    const good = await code();
    const ok = await exchange({ code: good, code_verifier: verifier });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.match(ok.body.access_token, /^sbxat_/);
    const again = await exchange({ code: good, code_verifier: verifier });
    assert.deepEqual([again.status, again.body.error], [400, 'invalid_grant']);
    const badClient = await exchange({ code: await code(), code_verifier: verifier, client_secret: 'nope' });
    assert.deepEqual([badClient.status, badClient.body.error], [401, 'invalid_client']);

    // The profile API: scopes limit what it answers; refresh_token works.
    const profile = await fetch(`${t.baseUrl}/sandbox/v1/profile`, { headers: { authorization: `Bearer ${ok.body.access_token}` } }).then(
      (r) => r.json() as any,
    );
    assert.equal(profile.id, 'usr_sbx4Grace9Hopper');
    assert.ok(profile.skills.length > 0);
    assert.deepEqual(profile.positions, [], 'the experience scope was not granted');
    const refreshed = await fetch(`${t.baseUrl}/sandbox/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: ok.body.refresh_token,
        client_id: 'hiring-integrations-sandbox',
        client_secret: secret,
      }),
    }).then((r) => r.json() as any);
    assert.match(refreshed.access_token, /^sbxat_/);
    const unauthorized = await fetch(`${t.baseUrl}/sandbox/v1/profile`, { headers: { authorization: 'Bearer sbxat_forged.sig' } });
    assert.equal(unauthorized.status, 401);
  });

  it('an unregistered redirect_uri is shown an error, never redirected to', async () => {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: 'hiring-integrations-sandbox',
      redirect_uri: 'https://evil.example/cb',
      state: 's',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    const page = await browse(new CookieJar(), `${t.baseUrl}/sandbox/oauth/authorize?${query}`);
    assert.equal(page.status, 400);
    assert.equal(page.location, undefined);
    const plain = new URLSearchParams({
      response_type: 'code',
      client_id: 'hiring-integrations-sandbox',
      redirect_uri: `${t.baseUrl}/v1/connect/profile/callback`,
      state: 's',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'plain',
    });
    const noPkce = await browse(new CookieJar(), `${t.baseUrl}/sandbox/oauth/authorize?${plain}`);
    assert.equal(noPkce.status, 302);
    assert.equal(new URL(noPkce.location!).searchParams.get('error'), 'invalid_request');
  });
});

async function runConnectStartOnly(t: TestHost, organizationId: string, listingId: string, origin: string): Promise<URL> {
  const jar = new CookieJar();
  const start = await browse(jar, `${t.baseUrl}/v1/connect/profile?${new URLSearchParams({ organization_id: organizationId, listing_id: listingId, origin })}`);
  const consent = await browse(jar, new URL(start.location!, t.baseUrl).toString());
  const { parseConsentForm } = await import('../helpers/profile-flow');
  const form = parseConsentForm(consent.text, t.baseUrl);
  const button = form.buttons.get('Authorize as Grace Hopper')!;
  const decided = await browse(jar, form.action, { method: 'POST', form: { ...form.hidden, [button.name]: button.value } });
  return new URL(decided.location!, t.baseUrl);
}
