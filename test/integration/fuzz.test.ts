/**
 * Fuzzing every endpoint the OpenAPI document declares (and the browser-facing connect
 * and sandbox OAuth endpoints outside it, and the host's hook endpoint): random and malformed bodies,
 * headers, path parameters and query strings never produce a 5xx or a crash, and a
 * rejected request never writes a row. Bounded in `npm test`; `npm run fuzz` runs more.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { Database } from '../../src/platform/database/database';
import { startTestHost, type TestHost } from '../helpers/test-host';

const RUNS = Number(process.env.FUZZ_RUNS ?? 15);

interface Operation {
  method: string;
  path: string;
  security: Record<string, string[]>[];
}

async function rowCounts(db: Database): Promise<string> {
  const tables: { table_name: string }[] = (
    await db.raw(
      `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like '%knex_migrations%' order by 1`,
    )
  ).rows;
  // Stores that legitimately change on reads or rejections are left out, and so are the
  // tables only job processors write (they change on their own time, after an accepted
  // request): a rejected request's writes would show in the records and hi_outbox. The audit
  // trail records every authenticated call of a mutating operation, refused ones included
  // (evidence of the attempt), so it is left out too.
  const skipped = [
    'hi_oauth_sessions',
    'hi_idempotency_keys',
    'hi_sandbox_provisionings',
    'host_pipeline_applications',
    'hi_profile_snapshots',
    'hi_audit_events',
    'hi_audit_heads',
    'hi_audit_pending',
  ];
  const watched = tables.map((t) => t.table_name).filter((t) => !skipped.includes(t));
  const result = await db.raw(watched.map((t) => `select '${t}' as t, count(*)::int as n from "${t}"`).join(' union all '));
  return result.rows.map((r: { t: string; n: number }) => `${r.t}=${r.n}`).join(',');
}

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '..',
    '%',
    '%00',
    '../../etc/passwd',
    'org_',
    'listing_',
    'usr_',
    'app_',
    'a.b',
    'A.B',
    'profile.accept_application',
    '\u0000',
    '😀',
    'x'.repeat(300),
  ),
);
const jsonValue = fc.jsonValue({ maxDepth: 3 });
const body = fc.oneof(
  fc.record({ kind: fc.constant('json' as const), value: jsonValue }),
  fc.record({
    kind: fc.constant('object' as const),
    value: fc.dictionary(
      fc.oneof(
        text,
        fc.constantFrom(
          'profile_user_id',
          'cover_letter',
          'answers',
          'name',
          'profile_apply',
          'action_key',
          'content_base64',
          'expires_at',
          'contact',
          'background_check',
        ),
      ),
      jsonValue,
      {
        maxKeys: 5,
      },
    ),
  }),
  fc.record({
    kind: fc.constant('raw' as const),
    value: fc.oneof(fc.string(), fc.constantFrom('{', '{"a":', 'null', '[]', '"str"', '\u0000', '{"__proto__":{"x":1}}')),
  }),
  fc.constant({ kind: 'none' as const, value: undefined }),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  undefined,
);
const query = fc.dictionary(
  fc.oneof(text, fc.constantFrom('limit', 'starting_after', 'organization_id', 'listing_id', 'origin', 'activate', 'subscribe')),
  text,
  { maxKeys: 3 },
);

describe('fuzzing every endpoint', function () {
  this.timeout(600_000);
  let t: TestHost;
  let operations: Operation[];
  let orgKey: string;

  before(async () => {
    // No job workers (with Redis; embedded mode always runs them): a job queued by an accepted
    // request would otherwise write rows in the middle of a later request's before/after count.
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' }, runWorkers: false });
    ({ apiKey: orgKey } = await t.createOrganization('Fuzz Org'));
    const doc = (await t.request('GET', '/v1/openapi.json')).body;
    operations = Object.entries(doc.paths as Record<string, Record<string, { security: Record<string, string[]>[] }>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, security: op.security ?? [] })),
    );
    assert.ok(operations.length >= 5, 'the OpenAPI document lists the endpoints');
  });
  after(() => t?.close());

  it('never answers 5xx and never writes a row when it rejects', async () => {
    for (const operation of operations) {
      const credentials = operation.security.flatMap((s) => Object.keys(s));
      const auth = fc.oneof(
        fc.constant(credentials.includes('operatorApiKey') ? t.operatorKey : orgKey),
        fc.constant(orgKey),
        fc.constant(undefined),
        text.map((s) => s.replace(/[\r\n]/g, '')),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(text, { minLength: 3, maxLength: 3 }),
          query,
          body,
          contentType,
          auth,
          fc.option(text),
          async (params, q, b, type, key, idem) => {
            let i = 0;
            const path = operation.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(params[i++ % params.length]!) || 'x');
            const search = new URLSearchParams(q).toString();
            const headers: Record<string, string> = {};
            if (type) headers['content-type'] = type;
            if (key !== undefined) headers.authorization = /^[\x20-\x7e]*$/.test(key) ? `Bearer ${key}` : 'Bearer x';
            if (idem !== null && /^[\x20-\x7e]*$/.test(idem)) headers['idempotency-key'] = idem;
            const rawBody = b.kind === 'none' ? undefined : b.kind === 'raw' ? b.value : JSON.stringify(b.value);
            const before = await rowCounts(t.database.db);
            const response = await t.request(operation.method, `${path}${search ? `?${search}` : ''}`, {
              rawBody: operation.method === 'GET' ? undefined : rawBody,
              headers,
            });
            assert.ok(response.status < 500, `${operation.method} ${path} → ${response.status} ${response.text.slice(0, 300)}`);
            if (response.status >= 400) {
              if (response.headers.get('content-type')?.includes('json')) {
                assert.equal(typeof response.body?.error?.code, 'string', response.text.slice(0, 200));
              }
              assert.equal(await rowCounts(t.database.db), before, `${operation.method} ${path} → ${response.status} wrote a row`);
            }
          },
        ),
        { numRuns: RUNS, endOnFailure: true },
      );
    }
    // The server is still alive and well.
    assert.equal((await t.request('GET', '/healthz')).status, 200);
  });

  /** Browser-facing endpoints outside the OpenAPI document: the connect popup and the sandbox OAuth server. */
  const browserEndpoints: Array<{ method: string; path: string; form?: boolean }> = [
    { method: 'GET', path: '/v1/connect/profile' },
    { method: 'GET', path: '/v1/connect/profile/callback' },
    { method: 'GET', path: '/sandbox/oauth/authorize' },
    { method: 'POST', path: '/sandbox/oauth/authorize', form: true },
    { method: 'POST', path: '/sandbox/oauth/token', form: true },
    { method: 'GET', path: '/sandbox/v1/profile' },
    { method: 'GET', path: '/sandbox/profiles/usr_sbx7Ada2Lovelace' },
    { method: 'GET', path: '/widgets/profile-apply.js' },
    { method: 'GET', path: '/v1/messages/unsubscribe' },
    { method: 'POST', path: '/v1/messages/unsubscribe', form: true },
    { method: 'GET', path: '/v1/sourcing/unsubscribe' },
    { method: 'POST', path: '/v1/sourcing/unsubscribe', form: true },
    { method: 'GET', path: '/v1/call_sheets/confirm' },
    { method: 'POST', path: '/v1/call_sheets/confirm', form: true },
    { method: 'GET', path: '/v1/call_sheets/sheet' },
    { method: 'GET', path: '/v1/timesheet_review' },
    { method: 'POST', path: '/v1/timesheet_review', form: true },
    { method: 'GET', path: '/v1/shifts/confirm' },
    { method: 'POST', path: '/v1/shifts/confirm', form: true },
  ];
  const oauthQuery = fc.dictionary(
    fc.oneof(
      text,
      fc.constantFrom(
        'organization_id',
        'listing_id',
        'origin',
        'return_to',
        'client_state',
        'state',
        'code',
        'error',
        'client_id',
        'redirect_uri',
        'response_type',
        'code_challenge',
        'code_challenge_method',
        'scope',
        'token',
      ),
    ),
    fc.oneof(text, fc.constantFrom('S256', 'plain', 'code', 'token', 'https://jobs.example.com', 'http://127.0.0.1', 'javascript:alert(1)', 'access_denied')),
    { maxKeys: 6 },
  );
  const formBody = fc.dictionary(
    fc.oneof(
      text,
      fc.constantFrom('request', 'user_id', 'decision', 'grant_type', 'code', 'code_verifier', 'redirect_uri', 'client_id', 'client_secret', 'refresh_token'),
    ),
    fc.oneof(text, fc.constantFrom('authorization_code', 'refresh_token', 'allow', 'deny', 'usr_sbx7Ada2Lovelace')),
    { maxKeys: 6 },
  );

  it('the connect popup and the sandbox OAuth server never answer 5xx and never write a row when they reject', async () => {
    for (const endpoint of browserEndpoints) {
      await fc.assert(
        fc.asyncProperty(oauthQuery, formBody, fc.option(text), fc.option(text), async (q, form, cookie, authorization) => {
          const headers: Record<string, string> = {};
          if (cookie !== null && /^[\x20-\x7e]*$/.test(cookie)) headers.cookie = `hi_connect=${cookie}`;
          if (authorization !== null && /^[\x20-\x7e]*$/.test(authorization)) headers.authorization = authorization;
          let rawBody: string | undefined;
          if (endpoint.form) {
            headers['content-type'] = 'application/x-www-form-urlencoded';
            rawBody = new URLSearchParams(form).toString();
          }
          const search = new URLSearchParams(q).toString();
          const before = await rowCounts(t.database.db);
          const response = await t.request(endpoint.method, `${endpoint.path}${search ? `?${search}` : ''}`, { rawBody, headers });
          assert.ok(response.status < 500, `${endpoint.method} ${endpoint.path}?${search} → ${response.status} ${response.text.slice(0, 300)}`);
          if (response.status >= 400)
            assert.equal(await rowCounts(t.database.db), before, `${endpoint.method} ${endpoint.path} → ${response.status} wrote a row`);
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
    }
    assert.equal((await t.request('GET', '/healthz')).status, 200);
  });

  it('the host hook endpoint never answers 5xx and never writes a row when it rejects', async () => {
    const hooks = fc.oneof(
      text.map(encodeURIComponent),
      fc.constantFrom(
        'interview.scheduled',
        'interview.rescheduled',
        'interview.canceled',
        'offer.created',
        'candidate.hired',
        'application.stage_changed',
        'employee.updated',
        'employee.terminated',
        'volunteer.cleared',
        'nothing.happened',
        'time_off.created',
        'time_off.updated',
        'time_off.cancelled',
        'shift.published',
        'shift.updated',
        'shift.cancelled',
      ),
    );
    const organization = fc.oneof(text, fc.constant((await t.request('GET', '/v1/organization', { auth: orgKey })).body.id as string));
    const payload = fc.oneof(
      jsonValue,
      fc.record({
        interview_id: fc.oneof(text, fc.constant('int_1')),
        starts_at: fc.oneof(text, fc.constant('2031-01-01T10:00:00Z')),
        candidate: fc.oneof(
          jsonValue,
          fc.record({ name: text, email: fc.oneof(text, fc.constant('a@b.example')), phone: fc.oneof(text, fc.constant('+15555550100')) }),
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(hooks, organization, payload, fc.boolean(), async (hook, organizationId, data, wrapped) => {
        const before = await rowCounts(t.database.db);
        const response = await t.request('POST', `/host/v1/hooks/${hook}`, {
          auth: t.operatorKey,
          body: wrapped ? { organization_id: organizationId, payload: data } : data,
        });
        assert.ok(response.status < 500, `hook ${hook} → ${response.status} ${response.text.slice(0, 300)}`);
        if (response.status >= 400) assert.equal(await rowCounts(t.database.db), before, `hook ${hook} → ${response.status} wrote a row`);
      }),
      { numRuns: RUNS * 4, endOnFailure: true },
    );
  });
});
