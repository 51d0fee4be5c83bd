/** Security properties that cut across features. */
import { strict as assert } from 'node:assert';
import crypto from 'node:crypto';
import net from 'node:net';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { deriveKey } from '../../src/platform/security/key-derivation';
import { TokenCipher } from '../../src/platform/security/token-cipher';
import { KnexCandidateAuthorizationRepository } from '../../src/features/profiles/storage/candidate-authorization-repository';
import { rememberSecret } from '../helpers/log-capture';
import { settledLicense } from '../helpers/licensing';
import {
  ADA,
  ALAN,
  browse,
  CookieJar,
  enableProfileApply,
  GRACE,
  KATHERINE,
  parseConsentForm,
  popupResult,
  QUESTIONS,
  runConnect,
  waitFor,
} from '../helpers/profile-flow';

describe('security', () => {
  let t: TestHost;
  let apiKey: string;
  before(async () => {
    t = await startTestHost();
    ({ apiKey } = await t.createOrganization('Secure Org'));
  });
  after(() => t?.close());

  it('stores API keys only as digests: no table holds a key', async () => {
    const tables: { table_name: string }[] = (
      await t.database.db.raw(`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`)
    ).rows;
    const secretPart = apiKey.slice(17);
    for (const { table_name } of tables) {
      const rows = await t.database.db(table_name).select();
      assert.ok(!JSON.stringify(rows).includes(secretPart), `${table_name} contains an API key`);
    }
  });

  it('compares keys in constant time, for a hit and for a miss alike', async () => {
    const original = crypto.timingSafeEqual;
    let calls = 0;
    (crypto as { timingSafeEqual: typeof original }).timingSafeEqual = (a, b) => {
      calls++;
      return original(a, b);
    };
    try {
      assert.equal((await t.request('GET', '/v1/organization', { auth: apiKey })).status, 200);
      assert.equal(calls, 1, 'a valid key is compared with timingSafeEqual');
      calls = 0;
      const unknown = `hik_${'Z'.repeat(12)}_${'Z'.repeat(43)}`;
      assert.equal((await t.request('GET', '/v1/organization', { auth: unknown })).status, 401);
      assert.equal(calls, 1, 'an unknown key costs the same comparison');
      calls = 0;
      assert.equal((await t.request('POST', '/v1/organizations', { auth: 'x'.repeat(40), body: { name: 'n' } })).status, 401);
      assert.equal(calls, 1, 'the operator key is compared in constant time');
    } finally {
      (crypto as { timingSafeEqual: typeof original }).timingSafeEqual = original;
    }
  });

  it('answers 413 from Content-Length alone, before reading or parsing the body', async () => {
    const url = new URL(t.baseUrl);
    const response = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        // Announce a huge body but send none of it: a parser would wait forever.
        socket.write(
          `POST /v1/organizations HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${t.operatorKey}\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n`,
        );
      });
      let data = '';
      socket.on('data', (chunk) => {
        data += chunk;
        if (data.includes('\r\n\r\n') && data.includes('}')) {
          socket.destroy();
          resolve(data);
        }
      });
      socket.on('error', reject);
      setTimeout(() => reject(new Error('no answer: the server waited for the body')), 5000).unref();
    });
    assert.match(response, /^HTTP\/1\.1 413/);
    assert.match(response, /body_too_large/);
  });

  describe('OAuth connect flow', () => {
    const origin = 'https://jobs.secure.example';
    let org: { organizationId: string; apiKey: string };
    let listingId: string;
    const authorizations = () => t.database.db('hi_candidate_authorizations').where({ organization_id: org.organizationId });

    before(async () => {
      org = await t.createOrganization('OAuth Org');
      listingId = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Security Engineer', questions: QUESTIONS })).id;
      await enableProfileApply(t, org.apiKey, [origin]);
      const license = await t.request('POST', '/v1/integrations/licenses/profile.accept_application/activate', { auth: org.apiKey });
      assert.ok(license.status === 202 || license.status === 200, license.text);
      assert.equal((await settledLicense(t, org.apiKey, license.body.id)).status, 'active');
    });

    /** Start → consent → the candidate's choice; returns the callback URL (code + state) without calling it. */
    async function authorizeOnly(jar: CookieJar, candidateName: string, editAuthorizeUrl?: (url: URL) => void): Promise<URL> {
      const query = new URLSearchParams({ organization_id: org.organizationId, listing_id: listingId, origin });
      const start = await browse(jar, `${t.baseUrl}/v1/connect/profile?${query}`);
      assert.equal(start.status, 302, start.text.slice(0, 200));
      const authorizeUrl = new URL(start.location!, t.baseUrl);
      editAuthorizeUrl?.(authorizeUrl);
      const consent = await browse(jar, authorizeUrl.toString());
      if (consent.status === 302) return new URL(consent.location!, t.baseUrl);
      const form = parseConsentForm(consent.text, t.baseUrl);
      const button = form.buttons.get(`Authorize as ${candidateName}`)!;
      const decided = await browse(jar, form.action, { method: 'POST', form: { ...form.hidden, [button.name]: button.value } });
      assert.equal(decided.status, 302);
      const callback = new URL(decided.location!, t.baseUrl);
      rememberSecret(callback.searchParams.get('code'));
      return callback;
    }

    it('keeps OAuth tokens encrypted at rest: a dump of every table holds no access, refresh or candidate token', async () => {
      const run = await runConnect(t, { organizationId: org.organizationId, listingId, origin, button: `Authorize as ${KATHERINE.name}` });
      assert.equal(run.result?.message.type, 'profile-apply:authorized');
      const candidateToken: string = run.result!.message.candidate_token;
      await waitFor(
        async () => (await t.database.db('hi_profile_snapshots').where({ organization_id: org.organizationId, profile_user_id: KATHERINE.id })).length === 1,
        'the import',
      );
      const applied = await t.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
        auth: candidateToken,
        body: { profile_user_id: KATHERINE.id, answers: { years_experience: 8, work_authorization: true } },
      });
      assert.equal(applied.status, 201, applied.text);
      // The tokens themselves, as the product decrypts them with the installation's key.
      const repository = new KnexCandidateAuthorizationRepository(t.database.db, new TokenCipher(deriveKey(t.config.secretKey, 'oauth-token-encryption')));
      const stored = await repository.find(org.organizationId, KATHERINE.id);
      assert.ok(stored?.accessToken && stored.refreshToken);
      for (const token of [stored.accessToken, stored.refreshToken, candidateToken]) rememberSecret(token);

      const tables: { table_name: string }[] = (
        await t.database.db.raw(`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`)
      ).rows;
      assert.ok(tables.length >= 8);
      for (const { table_name } of tables) {
        const dump = JSON.stringify(await t.database.db(table_name).select());
        for (const [what, token] of [
          ['access token', stored.accessToken],
          ['refresh token', stored.refreshToken],
          ['candidate token', candidateToken],
        ] as const) {
          assert.ok(!dump.includes(token), `${table_name} contains the ${what}`);
        }
        // No plaintext sandbox token of any candidate either.
        assert.ok(!/sbx(at|rt)_/.test(dump), `${table_name} contains a plaintext provider token`);
      }
    });

    it('rejects a callback whose state belongs to another flow (login CSRF): state_mismatch, nothing stored', async () => {
      // The attacker completes consent in their own browser and lures the victim to their callback URL.
      const attackerCallback = await authorizeOnly(new CookieJar(), ALAN.name);
      const victim = new CookieJar();
      await authorizeOnly(victim, GRACE.name); // the victim's own pending flow (its session, its state)
      const before = (await authorizations()).length;
      const landed = await browse(victim, attackerCallback.toString());
      const result = popupResult(landed.text);
      assert.equal(result?.message.type, 'profile-apply:error');
      assert.equal(result?.message.code, 'state_mismatch');
      assert.equal(result?.target_origin, origin);
      assert.equal((await authorizations()).length, before);
      assert.equal((await authorizations().where({ profile_user_id: ALAN.id })).length, 0);
    });

    it('rejects a replayed authorization code, even inside a fresh flow whose state matches', async () => {
      const jar = new CookieJar();
      const first = await authorizeOnly(jar, GRACE.name);
      const done = await browse(jar, first.toString());
      assert.equal(popupResult(done.text)?.message.type, 'profile-apply:authorized');
      const count = (await authorizations()).length;
      // A new flow (new session, new state, new PKCE verifier), fed the old, spent code.
      const fresh = new CookieJar();
      const second = await authorizeOnly(fresh, GRACE.name);
      const replay = new URL(second);
      replay.searchParams.set('code', first.searchParams.get('code')!);
      const result = popupResult((await browse(fresh, replay.toString())).text);
      assert.equal(result?.message.type, 'profile-apply:error');
      assert.equal(result?.message.code, 'provider_error');
      assert.equal((await authorizations()).length, count);
    });

    it('refuses an authorization request without PKCE, and the popup reports it without storing anything', async () => {
      const before = (await authorizations()).length;
      for (const strip of [
        (u: URL) => (u.searchParams.delete('code_challenge'), u.searchParams.delete('code_challenge_method')),
        (u: URL) => u.searchParams.set('code_challenge_method', 'plain'),
      ]) {
        const jar = new CookieJar();
        const callback = await authorizeOnly(jar, ADA.name, strip);
        assert.equal(callback.searchParams.get('error'), 'invalid_request');
        assert.equal(callback.searchParams.get('code'), null, 'no code without PKCE');
        const result = popupResult((await browse(jar, callback.toString())).text);
        assert.equal(result?.message.type, 'profile-apply:error');
        assert.equal(result?.target_origin, origin);
      }
      assert.equal((await authorizations()).length, before);
    });

    it('posts the callback result only to the allowed origin the flow started from, never "*"', async () => {
      const run = await runConnect(t, { organizationId: org.organizationId, listingId, origin, button: `Authorize as ${ADA.name}` });
      const html = run.callback!.text;
      assert.equal(run.result?.target_origin, origin);
      // The page's only postMessage call targets the data block's origin.
      const calls = [...html.matchAll(/postMessage\(([^)]*)\)/g)].map((m) => m[1]);
      assert.deepEqual(calls, ['r.message,r.target_origin']);
      assert.ok(!/['"]\*['"]/.test(html), 'no wildcard target anywhere on the page');
      const csp = run.callback!.headers.get('content-security-policy')!;
      assert.match(csp, /script-src 'nonce-/);
      // An origin the organization did not list gets a page that cannot post at all.
      for (const other of ['https://evil.example', 'https://jobs.secure.example.evil.example', 'http://jobs.secure.example', `${origin}:8443`]) {
        const query = new URLSearchParams({ organization_id: org.organizationId, listing_id: listingId, origin: other });
        const response = await fetch(`${t.baseUrl}/v1/connect/profile?${query}`, { redirect: 'manual' });
        const page = await response.text();
        assert.notEqual(response.status, 302, `${other} must not start a flow`);
        assert.equal(popupResult(page), undefined, `${other} gets no message`);
        assert.ok(!page.includes('postMessage'), `${other}: no script that posts`);
        assert.match(response.headers.get('content-security-policy')!, /script-src 'none'/);
      }
    });
  });
});
