/**
 * The findings of the security review, each with the attack that worked before the fix:
 * deep JSON, plaintext keys in the idempotency store, rotation by a rotated-out key,
 * self-service revocation, reusable sandbox consent tickets, unpruned codes, driver
 * errors on the public /readyz, and a world-readable embedded data folder.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, statSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { KnexIdempotencyStore } from '../../src/platform/http/idempotency-store';
import { makePrivateFolder } from '../../src/platform/database/private-folder';
import { SandboxConsentTickets } from '../../src/features/sandbox-provider/storage/consent-tickets';
import { freePort } from '../helpers/processes';
import { browse, CookieJar, parseConsentForm, QUESTIONS } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { testDir } from '../helpers/temp-dirs';

describe('hardening: security findings', function () {
  this.timeout(30_000);
  let t: TestHost;
  let organizationId: string;
  let apiKey: string;

  before(async () => {
    t = await startTestHost();
    ({ organizationId, apiKey } = await t.createOrganization('Hardening Org'));
  });
  after(() => t?.close());

  describe('deep JSON', () => {
    it('a body of 30,000 nested arrays is 400 invalid_request, read without recursion; 32 levels are still accepted', async () => {
      const deep = '['.repeat(30_000) + ']'.repeat(30_000);
      const listing = await t.host.listings.create({ organizationId, title: 'Deep', questions: QUESTIONS });
      const response = await t.request('POST', `/v1/opportunities/listings/${listing.id}/applications/profile`, {
        auth: apiKey,
        rawBody: `{"profile_user_id":"usr_x","answers":${deep}}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(response.status, 400, response.text.slice(0, 300));
      assert.equal(response.body.error.code, 'invalid_request');
      // Depth 32 is parsed and judged on its merits (here: not a valid name).
      const nested = '['.repeat(31) + ']'.repeat(31);
      const ok = await t.request('POST', '/v1/organizations', {
        auth: t.operatorKey,
        rawBody: `{"name":${nested}}`,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(ok.status, 400);
      assert.equal(ok.body.error.code, 'parameter_invalid', ok.text);
      // And nested brackets inside strings are text, not depth.
      const text = await t.request('POST', '/v1/organizations', { auth: t.operatorKey, body: { name: `${'['.repeat(100)}"\\` } });
      assert.equal(text.status, 201, text.text);
    });
  });

  describe('the idempotency store holds no secret', () => {
    it('POST /v1/organizations with an Idempotency-Key stores its answer without the api_key', async () => {
      const created = await t.request('POST', '/v1/organizations', {
        auth: t.operatorKey,
        body: { name: 'Keyed' },
        headers: { 'idempotency-key': 'org-keyed-1' },
      });
      assert.equal(created.status, 201);
      const dump = JSON.stringify(await t.database.db('hi_idempotency_keys').select('*'));
      assert.ok(!dump.includes(created.body.api_key), 'the plaintext API key is in hi_idempotency_keys');
      const replay = await t.request('POST', '/v1/organizations', {
        auth: t.operatorKey,
        body: { name: 'Keyed' },
        headers: { 'idempotency-key': 'org-keyed-1' },
      });
      assert.equal(replay.status, 201);
      assert.equal(replay.body.id, created.body.id);
      assert.equal(replay.body.api_key, null);
    });

    it('idempotency rows older than 24 hours are pruned', async () => {
      const db = t.database.db;
      const old = new Date(Date.now() - 25 * 3600_000);
      await db('hi_idempotency_keys').insert({
        scope: 'org:org_old',
        key: 'k-old',
        request_hash: 'x',
        response_status: 201,
        response_body: '{}',
        created_at: old,
        completed_at: old,
      });
      await db('hi_idempotency_keys').insert({
        scope: 'org:org_old',
        key: 'k-new',
        request_hash: 'x',
        response_status: 201,
        response_body: '{}',
        created_at: new Date(),
      });
      assert.ok((await new KnexIdempotencyStore(db).prune()) >= 1);
      const left = (await db('hi_idempotency_keys').where({ scope: 'org:org_old' }).select('key')).map((r) => r.key);
      assert.deepEqual(left, ['k-new']);
    });
  });

  describe('API keys', () => {
    it('a rotated-out key cannot rotate again (403 api_key_not_current); the current one can', async () => {
      const org = await t.createOrganization('Rotating Org');
      const rotated = await t.request('POST', '/v1/organization/api_keys/rotate', { auth: org.apiKey, body: {} });
      assert.equal(rotated.status, 201, rotated.text);
      const again = await t.request('POST', '/v1/organization/api_keys/rotate', { auth: org.apiKey, body: {} });
      assert.equal(again.status, 403, again.text);
      assert.equal(again.body.error.code, 'api_key_not_current');
      // Every key of the organization still has an end, except the current one.
      const keys = await t.database.db('hi_api_keys').where({ organization_id: org.organizationId });
      assert.equal(keys.filter((k) => k.expires_at === null).length, 1);
      // The old key still works for reading during its grace period.
      assert.equal((await t.request('GET', '/v1/organization', { auth: org.apiKey })).status, 200);
      const byCurrent = await t.request('POST', '/v1/organization/api_keys/rotate', { auth: rotated.body.api_key, body: {} });
      assert.equal(byCurrent.status, 201, byCurrent.text);
    });

    it("an organization revokes its own key at once with DELETE /v1/organization/api_keys/{prefix}; another organization's prefix is 404", async () => {
      const org = await t.createOrganization('Revoking Org');
      const other = await t.createOrganization('Other Org');
      const rotated = await t.request('POST', '/v1/organization/api_keys/rotate', { auth: org.apiKey, body: {} });
      const oldPrefix = org.apiKey.slice(0, 16);
      const listed = await t.request('GET', '/v1/organization', { auth: rotated.body.api_key });
      const prefix = listed.body.api_keys.map((k: { prefix: string }) => k.prefix).find((p: string) => org.apiKey.startsWith(p));
      assert.ok(prefix, `the old key's prefix is listed (${oldPrefix})`);
      const foreign = await t.request('DELETE', `/v1/organization/api_keys/${prefix}`, { auth: other.apiKey });
      assert.equal(foreign.status, 404, foreign.text);
      assert.equal((await t.request('GET', '/v1/organization', { auth: org.apiKey })).status, 200);
      const revoked = await t.request('DELETE', `/v1/organization/api_keys/${prefix}`, { auth: rotated.body.api_key });
      assert.equal(revoked.status, 200, revoked.text);
      assert.equal(revoked.body.object, 'api_key');
      assert.ok(revoked.body.revoked_at);
      assert.equal((await t.request('GET', '/v1/organization', { auth: org.apiKey })).status, 401);
      assert.equal((await t.request('DELETE', '/v1/organization/api_keys/hik_unknownprfx', { auth: rotated.body.api_key })).status, 404);
    });
  });

  describe('sandbox provider', () => {
    it('a consent ticket decides once: replaying the consent form is refused', async () => {
      const settings = await t.request('PATCH', '/v1/organization/settings', {
        auth: apiKey,
        body: { profile_apply: { enabled: true, allowed_origins: ['https://jobs.hardening.example'] } },
      });
      assert.equal(settings.status, 200, settings.text);
      const listing = await t.host.listings.create({ organizationId, title: 'Tickets', questions: QUESTIONS });
      const jar = new CookieJar();
      // The sandbox's authorize page directly, as grant would send the browser there.
      const connect = await browse(
        jar,
        `${t.baseUrl}/v1/connect/profile?${new URLSearchParams({ organization_id: organizationId, listing_id: listing.id, origin: 'https://jobs.hardening.example' })}`,
      );
      let authorize: URL;
      if (connect.status === 302) authorize = new URL(connect.location!, t.baseUrl);
      else {
        // Without the license the popup stops early; the ticket lives on the provider's side anyway.
        authorize = new URL(`${t.baseUrl}/sandbox/oauth/authorize`);
        const registration = await import('../../src/features/sandbox-provider/sandbox-client');
        const reg = registration.sandboxRegistration(t.config);
        authorize.search = new URLSearchParams({
          client_id: reg.clientId,
          redirect_uri: reg.redirectUri,
          response_type: 'code',
          state: 's',
          code_challenge: 'a'.repeat(43),
          code_challenge_method: 'S256',
        }).toString();
      }
      const consent = await browse(jar, authorize.toString());
      assert.equal(consent.status, 200, consent.text.slice(0, 200));
      const form = parseConsentForm(consent.text, t.baseUrl);
      const button = form.buttons.get('Authorize as Ada Lovelace')!;
      const first = await browse(jar, form.action, { method: 'POST', form: { ...form.hidden, [button.name]: button.value } });
      assert.equal(first.status, 302);
      const replay = await browse(jar, form.action, { method: 'POST', form: { ...form.hidden, [button.name]: button.value } });
      assert.equal(replay.status, 400, 'a second decision with the same ticket');
      assert.equal(replay.location, undefined);
    });

    it('expired authorization codes and ticket claims are pruned', async () => {
      const db = t.database.db;
      const past = new Date(Date.now() - 3600_000);
      await db('hi_sandbox_authorization_codes').insert({
        code_hash: 'expired-code',
        client_id: 'c',
        redirect_uri: 'r',
        code_challenge: 'x',
        user_id: 'u',
        scope: 's',
        expires_at: past,
      });
      await db('hi_sandbox_consent_tickets').insert({ id: 'expired-ticket', expires_at: past });
      assert.ok((await new SandboxConsentTickets(db).pruneExpired()) >= 2);
      assert.equal((await db('hi_sandbox_authorization_codes').where({ code_hash: 'expired-code' })).length, 0);
      assert.equal((await db('hi_sandbox_consent_tickets').where({ id: 'expired-ticket' })).length, 0);
    });
  });

  describe('operations', () => {
    it('the public /readyz says only "unavailable", never the driver\'s message', async () => {
      // A Redis nobody listens on, with a role name in its URL: what the driver says must stay in the logs.
      const down = await startTestHost({ env: { REDIS_URL: `redis://hi_secret_role@127.0.0.1:${await freePort()}` }, runWorkers: false });
      try {
        const response = await down.request('GET', '/readyz');
        assert.equal(response.status, 503);
        assert.deepEqual(response.body, { status: 'not_ready', checks: { database: 'ok', redis: 'unavailable' } });
        assert.ok(!response.text.includes('127.0.0.1') && !response.text.includes('hi_secret_role'));
      } finally {
        await down.close();
      }
    });

    it('the embedded data folder is owner-only: folders 0700, files 0600, also those an older version left readable', () => {
      const dir = path.join(testDir('perm'), 'data');
      mkdirSync(path.join(dir, 'pglite', 'base'), { recursive: true, mode: 0o755 });
      writeFileSync(path.join(dir, 'pglite', 'base', 'old-file'), 'x');
      chmodSync(path.join(dir, 'pglite', 'base', 'old-file'), 0o644);
      chmodSync(dir, 0o755);
      const umask = process.umask();
      try {
        makePrivateFolder(dir);
        writeFileSync(path.join(dir, 'new-file'), 'y');
      } finally {
        process.umask(umask);
      }
      const walk = (folder: string): void => {
        assert.equal(statSync(folder).mode & 0o777, 0o700, folder);
        for (const entry of readdirSync(folder, { withFileTypes: true })) {
          const full = path.join(folder, entry.name);
          if (entry.isDirectory()) walk(full);
          else assert.equal(statSync(full).mode & 0o777, 0o600, full);
        }
      };
      walk(dir);
    });
  });
});
