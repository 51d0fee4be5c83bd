/** Every status of the error model, over HTTP, with the one body shape. */
import { strict as assert } from 'node:assert';
import { startTestHost, type HttpResponse, type TestHost } from '../helpers/test-host';

function assertError(response: HttpResponse, status: number, code: string, param?: string): void {
  assert.equal(response.status, status, response.text);
  assert.equal(response.body.error.code, code, response.text);
  assert.equal(typeof response.body.error.message, 'string');
  assert.match(response.body.error.request_id, /^req_/);
  assert.equal(response.headers.get('request-id'), response.body.error.request_id);
  if (param !== undefined) assert.equal(response.body.error.param, param);
}

describe('error model over HTTP', () => {
  let t: TestHost;
  let apiKey: string;

  before(async () => {
    t = await startTestHost();
    ({ apiKey } = await t.createOrganization());
  });
  after(() => t?.close());

  it('every response carries a Request-Id header', async () => {
    const response = await t.request('GET', '/healthz');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('request-id') ?? '', /^req_[0-9A-Za-z]{20}$/);
  });

  it('400 for malformed JSON', async () => {
    assertError(
      await t.request('POST', '/v1/organizations', { auth: t.operatorKey, rawBody: '{"name":', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_json',
    );
  });

  it('400 naming the invalid, missing or unknown parameter', async () => {
    assertError(await t.request('POST', '/v1/organizations', { auth: t.operatorKey, body: { name: 42 } }), 400, 'parameter_invalid', 'name');
    assertError(await t.request('POST', '/v1/organizations', { auth: t.operatorKey, body: {} }), 400, 'parameter_missing', 'name');
    assertError(await t.request('POST', '/v1/organizations', { auth: t.operatorKey, body: { name: 'x', plan: 'gold' } }), 400, 'parameter_unknown', 'plan');
  });

  it('401 without a credential, with a malformed header, with an unknown key', async () => {
    assertError(await t.request('GET', '/v1/organization'), 401, 'missing_credentials');
    assertError(await t.request('GET', '/v1/organization', { headers: { authorization: `Basic ${apiKey}` } }), 401, 'invalid_authorization_header');
    assertError(await t.request('GET', '/v1/organization', { auth: `${apiKey.slice(0, -2)}xx` }), 401, 'invalid_api_key');
    assertError(await t.request('GET', '/v1/organization', { auth: 'hik_nope' }), 401, 'invalid_api_key');
  });

  it('403 when an organization key calls an operator-only endpoint', async () => {
    assertError(await t.request('POST', '/v1/organizations', { auth: apiKey, body: { name: 'Sneaky' } }), 403, 'operator_only');
  });

  it('404 for an unknown route', async () => {
    assertError(await t.request('GET', '/v1/nothing-here', { auth: apiKey }), 404, 'route_not_found');
  });

  it('409 when an Idempotency-Key is reused with another body; replay with the same body', async () => {
    const headers = { 'idempotency-key': 'create-org-1' };
    const first = await t.request('POST', '/v1/organizations', { auth: t.operatorKey, body: { name: 'Once' }, headers });
    assert.equal(first.status, 201);
    const replay = await t.request('POST', '/v1/organizations', { auth: t.operatorKey, body: { name: 'Once' }, headers });
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    // The key is shown once: the replay is the same answer without it, and no table holds it.
    assert.deepEqual(replay.body, { ...first.body, api_key: null });
    const stored = await t.database.db('hi_idempotency_keys').where({ key: 'create-org-1' }).first();
    assert.ok(!JSON.stringify(stored).includes(first.body.api_key), 'the plaintext key was stored');
    assertError(
      await t.request('POST', '/v1/organizations', { auth: t.operatorKey, body: { name: 'Twice' }, headers }),
      409,
      'idempotency_key_reused',
      'Idempotency-Key',
    );
    const count = await t.database.db('hi_organizations').where({ name: 'Once' }).count<{ count: string }[]>('* as count');
    assert.equal(Number(count[0]!.count), 1);
  });

  it('413 for a body over the limit, before it is parsed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(t.config.bodyLimitBytes + 10) });
    assertError(
      await t.request('POST', '/v1/organizations', { auth: t.operatorKey, rawBody: big, headers: { 'content-type': 'application/json' } }),
      413,
      'body_too_large',
    );
  });

  it('415 for a body that is not JSON', async () => {
    assertError(
      await t.request('POST', '/v1/organizations', {
        auth: t.operatorKey,
        rawBody: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'unsupported_media_type',
    );
  });

  it('429 with Retry-After once the rate limit is spent', async () => {
    const limited = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const { apiKey: key } = await limited.createOrganization();
      for (let i = 0; i < 3; i++) assert.equal((await limited.request('GET', '/v1/organization', { auth: key })).status, 200);
      const response = await limited.request('GET', '/v1/organization', { auth: key });
      assertError(response, 429, 'rate_limited');
      assert.match(response.headers.get('retry-after') ?? '', /^\d+$/);
      // Per key: another organization is not affected.
      const other = await limited.createOrganization('Other');
      assert.equal((await limited.request('GET', '/v1/organization', { auth: other.apiKey })).status, 200);
    } finally {
      await limited.close();
    }
  });

  it('an organization sees itself and its key prefixes, never a key', async () => {
    const response = await t.request('GET', '/v1/organization', { auth: apiKey });
    assert.equal(response.status, 200);
    assert.equal(response.body.api_keys.length, 1);
    assert.ok(!response.text.includes(apiKey));
    assert.ok(apiKey.startsWith(response.body.api_keys[0].prefix));
  });
});
