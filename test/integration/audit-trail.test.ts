/**
 * The audit trail: a walk over /v1/openapi.json calls every mutating operation an
 * organization key or the operator may call, and each one is in the trail (with its actor,
 * request id and target); an organization sees only its own events; `audit verify` (the
 * CLI, as its own process) passes an intact trail and catches a changed and a removed row.
 */
import { strict as assert } from 'node:assert';
import { createDatabase } from '../../src/platform/database/database';
import { KnexAuditRepository } from '../../src/features/audit/storage/audit-repository';
import { AuditRetention } from '../../src/features/audit/domain/audit-retention';
import { AuditWriter } from '../../src/features/audit/domain/audit-writer';
import { runCli } from '../helpers/cli';
import { testEnv } from '../helpers/config';
import { testLogger } from '../helpers/log-capture';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { FAST_WEBHOOKS } from '../helpers/webhook-receiver';

const MUTATING = ['post', 'put', 'patch', 'delete'];
const DAY = 86_400_000;

/**
 * Operations outside the trail: the candidate's own calls (its session, the connect flow, a recipient's answer through a
 * signed link in a message), public ones, and counterparts' signed webhooks (each recorded as a run, an event or an application).
 */
const OUTSIDE_THE_TRAIL: readonly RegExp[] = [
  /\/connect\//,
  /\/applications\/profile\/submit/,
  /\/sandbox\//,
  /widget/,
  /candidate_session/,
  /\/public\//,
  /\/messages\/unsubscribe/,
  /\/sourcing\/unsubscribe/,
  /\/call_sheets\//,
  /^[A-Z]+ \/v1\/schedule$/,
  /\/timesheet_review/,
  /\/sms\/twilio\//,
  /\/payouts\/webhooks\//,
  /\/background-checks\/vendor-events/,
  /\/shifts\/confirm/,
  /\/shifts\/feed\//,
  /^[A-Z]+ \/v1\/sign(\/document)?$/,
  /\/board-applications\/\{organization_id\}\/\{board\}$/,
  /\/employee-uploads/,
];

describe('audit: every change is in the trail', function () {
  this.timeout(180_000);
  let t: TestHost;

  before(async () => {
    t = await startTestHost({ env: { ...FAST_WEBHOOKS } });
  });
  after(() => t?.close());

  it('every mutating operation of the OpenAPI document called with an organization key or the operator key produces an audit event', async () => {
    const doc = (await t.request('GET', '/v1/openapi.json')).body;
    const called: { operationId: string; organizationId: string | null; requestId: string }[] = [];
    const unaudited: string[] = [];
    let hostCall: string | undefined;
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const method of MUTATING) {
        const operation = item[method];
        if (!operation) continue;
        const schemes = (operation.security ?? []).flatMap((s: object) => Object.keys(s));
        const url = path.replace(/\{[^}]+\}/g, 'x_audit_walk');
        if (operation.operationId === 'fireHook') {
          // The host's hook endpoint hands the call to the plugin, which records the host as the actor.
          const org = await t.createOrganization('Walk fireHook');
          await t.request('POST', '/host/v1/hooks/interview.canceled', {
            auth: t.operatorKey,
            body: { organization_id: org.organizationId, payload: { interview_id: 'int_walk' } },
          });
          hostCall = org.organizationId;
        } else if (schemes.includes('organizationApiKey')) {
          // A fresh organization each time: rotating or revoking its key harms no other call.
          const org = await t.createOrganization(`Walk ${operation.operationId}`);
          const response = await t.request(method.toUpperCase(), url, { auth: org.apiKey, body: {} });
          called.push({ operationId: operation.operationId, organizationId: org.organizationId, requestId: response.headers.get('request-id')! });
        } else if (schemes.includes('operatorApiKey')) {
          const response = await t.request(method.toUpperCase(), url, { auth: t.operatorKey, body: {} });
          called.push({ operationId: operation.operationId, organizationId: null, requestId: response.headers.get('request-id')! });
        } else {
          unaudited.push(`${method.toUpperCase()} ${path}`);
        }
      }
    }
    assert.ok(called.length > 30, `${called.length} operations called`);
    assert.ok(hostCall, 'the hook endpoint is in the document');
    const hook = await waitFor(
      async () => (await t.database.db('hi_audit_events').where({ organization_id: hostCall, action: 'hook:interview.canceled' }).first()) ?? undefined,
      "the host's hook call in the trail",
    );
    assert.equal(hook.actor_type, 'host');
    for (const operation of unaudited)
      assert.ok(
        OUTSIDE_THE_TRAIL.some((pattern) => pattern.test(operation)),
        `${operation} is not in the trail`,
      );
    let missing: string[] = [];
    const rows = await waitFor(
      async () => {
        const found = await t.database.db('hi_audit_events').whereIn(
          'request_id',
          called.map((c) => c.requestId),
        );
        missing = called.filter((c) => !found.some((r) => r.request_id === c.requestId)).map((c) => c.operationId);
        return missing.length === 0 ? found : undefined;
      },
      () => `an audit event for each of the ${called.length} calls; missing: ${missing.join(', ')}`,
    );
    for (const call of called) {
      const row = rows.find((r) => r.request_id === call.requestId);
      assert.ok(row, `${call.operationId} has no audit event`);
      assert.equal(row.action, call.operationId);
      if (call.organizationId) {
        assert.equal(row.organization_id, call.organizationId);
        assert.equal(row.actor_type, 'organization_key');
        assert.match(row.actor, /^hik_/);
      } else assert.equal(row.actor_type, 'operator');
    }
  });

  it('an organization reads its own trail only, newest first, with a cursor; secrets and values stay out', async () => {
    const org = await t.createOrganization('Trail Reader');
    const endpoint = await t.request('POST', '/v1/webhook_endpoints', { auth: org.apiKey, body: { url: 'http://127.0.0.1:9/trail', enabled: true } });
    assert.equal(endpoint.status, 201, endpoint.text);
    await t.request('PATCH', `/v1/webhook_endpoints/${endpoint.body.id}`, { auth: org.apiKey, body: { description: 'renamed' } });
    const page = await waitFor(async () => {
      const list = await t.request('GET', '/v1/audit_events?limit=1', { auth: org.apiKey });
      return list.body.data?.[0]?.action === 'updateWebhookEndpoint' ? list : undefined;
    }, 'the update in the trail');
    assert.equal(page.body.has_more, true);
    const next = await t.request('GET', `/v1/audit_events?limit=10&starting_after=${page.body.data[0].id}`, { auth: org.apiKey });
    assert.deepEqual(
      next.body.data.map((e: { action: string }) => e.action),
      ['createWebhookEndpoint'],
    );
    assert.ok(!JSON.stringify(next.body).includes('whsec_'), 'the signing secret is not in the trail');
    assert.deepEqual(next.body.data[0].after.request_fields, ['enabled', 'url']);
    const other = await t.createOrganization('Other Reader');
    assert.equal((await t.request('GET', '/v1/audit_events', { auth: other.apiKey })).body.data.length, 0);
    assert.equal((await t.request('GET', `/v1/audit_events?organization_id=${org.organizationId}`, { auth: other.apiKey })).status, 404);
    const operator = await t.request('GET', `/v1/audit_events?organization_id=${org.organizationId}&action=createWebhookEndpoint`, { auth: t.operatorKey });
    assert.equal(operator.body.data.length, 1);
  });
});

describe('audit: the verify command', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let env: Record<string, string | undefined>;
  const withDb = async <T>(run: (db: ReturnType<typeof createDatabase>) => Promise<T>): Promise<T> => {
    const db = database.url ? createDatabase({ databaseUrl: database.url, poolMax: 1 }) : createDatabase({ dataDir: env.DATA_DIR! });
    try {
      return await run(db);
    } finally {
      await db.destroy();
    }
  };

  before(async () => {
    database = await createTestDatabase();
    await database.db.destroy().catch(() => undefined);
    env = testEnv({ DATABASE_URL: database.url });
    // The CLI migrates the database it opens: an empty trail is intact.
    const empty = runCli(['audit', 'verify', '--json'], env);
    assert.equal(empty.code, 0, empty.stderr);
    assert.deepEqual(JSON.parse(empty.stdout), { ok: true, chains: 0, events: 0, problems: [] });
    await withDb(async (db) => {
      const audit = new KnexAuditRepository(db);
      for (let i = 0; i < 5; i++) {
        // Recorded, then chained by the write path's batches; day by day, the oldest ten days ago.
        await audit.record({
          organizationId: 'org_verify',
          actorType: 'organization_key',
          actor: 'hik_abc',
          ip: '127.0.0.1',
          requestId: `req_${i}`,
          action: 'updateWebhookEndpoint',
          method: 'PATCH',
          target: `/v1/webhook_endpoints/we_${i}`,
          status: 200,
          before: null,
          after: { request_fields: ['description'], response: { id: `we_${i}` } },
          at: new Date(Date.now() - (10 - i) * DAY),
        });
      }
      // A process that died after recording: the next one's sweep chains what it left.
      assert.deepEqual(await audit.pendingChains(new Date()), ['org_verify']);
      await new AuditWriter(audit, testLogger()).sweep(new Date());
      assert.equal((await db('hi_audit_pending')).length, 0);
    });
  });
  after(async () => {
    if (database.url) await database.drop();
  });

  const verify = () => runCli(['audit', 'verify', '--json'], env);

  // Each CLI run is a process opening the database: few runs, each checking much.
  it('passes an intact trail, still passes once retention pruned it, then catches a changed row, a row removed in the middle and the newest row removed', async () => {
    const intact = verify();
    assert.equal(intact.code, 0, intact.stderr);
    assert.deepEqual(JSON.parse(intact.stdout), { ok: true, chains: 1, events: 5, problems: [] });

    // Eight and a half days of retention: the two oldest go, the chain is anchored at #2 and says so in #6.
    await withDb(async (db) => {
      assert.deepEqual(await new AuditRetention(new KnexAuditRepository(db), 8.5).prune(new Date()), { chains: 1, events: 2 });
      const head = await db('hi_audit_heads').where({ chain: 'org_verify' }).first();
      assert.equal(Number(head.anchor_sequence), 2);
    });
    const pruned = verify();
    assert.equal(pruned.code, 0, pruned.stdout);
    assert.deepEqual(JSON.parse(pruned.stdout), { ok: true, chains: 1, events: 4, problems: [] });

    await withDb(async (db) => {
      await db('hi_audit_events').where({ chain: 'org_verify', sequence: 4 }).update({ status: 204 });
      await db('hi_audit_events').where({ chain: 'org_verify', sequence: 3 }).delete();
      await db('hi_audit_events').where({ chain: 'org_verify', sequence: 6 }).delete();
    });
    const tampered = verify();
    assert.equal(tampered.code, 1, tampered.stderr);
    assert.deepEqual(
      JSON.parse(tampered.stdout).problems.map((p: { sequence: number; problem: string }) => `${p.sequence} ${p.problem}`),
      ['4 sequence_gap', '4 broken_link', '4 hash_mismatch', '6 truncated', '2 anchor_mismatch'],
    );
  });
});
