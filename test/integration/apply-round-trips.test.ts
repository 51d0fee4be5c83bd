/**
 * What one warm application costs: one database statement (the duplicate check, the
 * authorization, the stored snapshot, the application row and its outbox message) and no
 * Redis command on the request path. Every query the product's knex issues and every command ioredis sends is
 * attributed to the request that caused it (AsyncLocalStorage around the request), until
 * the response is ended; the outbox relay's pass, which a request's nudge schedules for
 * later, is not part of the request.
 */
import { strict as assert } from 'node:assert';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { ADA, ALAN, enableProfileApply, GRACE, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';
import { usingRedis } from '../helpers/redis';
import { request, startTestHost, type TestHost } from '../helpers/test-host';

const ORIGIN = 'https://careers.acme.example';
const ANSWERS = { years_experience: 7, work_authorization: true };

interface RequestTrace {
  res: ServerResponse;
  statements: string[];
  redisCommands: string[];
}

describe('applications: round trips of a warm application', function () {
  this.timeout(60_000);
  let t: TestHost;
  let traced: Server;
  let tracedUrl: string;
  let acme: { organizationId: string; apiKey: string };
  const listings: string[] = [];
  const traces = new AsyncLocalStorage<RequestTrace>();
  /** Every traced request, in arrival order (the tests send one at a time). */
  const all: RequestTrace[] = [];
  const originalSendCommand = Redis.prototype.sendCommand;

  const onQuery = (query: { sql: string; __knexTxId?: string }) => {
    const trace = traces.getStore();
    if (trace && !trace.res.writableEnded) trace.statements.push(query.__knexTxId ? `(in transaction) ${query.sql}` : query.sql);
  };

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme');
    for (let i = 0; i < 3; i++)
      listings.push((await t.host.listings.create({ organizationId: acme.organizationId, title: `Engineer ${i}`, questions: QUESTIONS })).id);
    await enableProfileApply(t, acme.apiKey, [ORIGIN]);
    for (const candidate of [ADA, GRACE, ALAN])
      await runConnect(t, { organizationId: acme.organizationId, listingId: listings[0]!, origin: ORIGIN, button: `Authorize as ${candidate.name}` });
    await waitFor(async () => Number((await t.database.db('hi_profile_snapshots').count({ n: '*' }).first())?.n ?? 0) >= 3 || undefined, 'three imports');
    // The same app behind a server that gives each request its trace.
    traced = createServer((req, res) => {
      const trace: RequestTrace = { res, statements: [], redisCommands: [] };
      all.push(trace);
      traces.run(trace, () => t.host.app(req, res));
    });
    traced.listen(0, '127.0.0.1');
    await new Promise((resolve) => traced.once('listening', resolve));
    tracedUrl = `http://127.0.0.1:${(traced.address() as AddressInfo).port}`;
    t.database.db.on('query', onQuery);
    Redis.prototype.sendCommand = function (this: Redis, command: Parameters<Redis['sendCommand']>[0], stream?: Parameters<Redis['sendCommand']>[1]) {
      const trace = traces.getStore();
      if (trace && !trace.res.writableEnded) trace.redisCommands.push((command as { name: string }).name);
      return originalSendCommand.call(this, command, stream);
    } as Redis['sendCommand'];
  });
  after(async () => {
    Redis.prototype.sendCommand = originalSendCommand;
    t?.database.db.off('query', onQuery);
    traced?.closeAllConnections();
    await new Promise((resolve) => traced?.close(resolve));
    await t?.close();
  });

  /** Applies through the traced server and returns what the request itself sent. */
  async function tracedApply(listingId: string, profileUserId: string): Promise<{ status: number; statements: string[]; redisCommands: string[] }> {
    const index = all.length;
    const response = await request(tracedUrl, 'POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
      auth: acme.apiKey,
      body: { profile_user_id: profileUserId, answers: ANSWERS },
    });
    assert.equal(response.status, 201, response.text);
    const trace = all[index]!;
    return { status: response.status, statements: trace.statements, redisCommands: trace.redisCommands };
  }

  it('warm: one statement (checks, snapshot, application and outbox row), no Redis command', async () => {
    // The first application warms the caches (key, listing, settings, license).
    await tracedApply(listings[0]!, ADA.id);
    // Another listing and another candidate: only the listing is a cache miss.
    await tracedApply(listings[1]!, GRACE.id);
    const warm = await tracedApply(listings[1]!, ALAN.id);
    assert.equal(warm.statements.length, 1, `a warm application sent ${warm.statements.length} statements:\n${warm.statements.join('\n')}`);
    assert.match(warm.statements[0]!, /from \(select 1\) as one\s+left join hi_candidate_authorizations/);
    assert.match(warm.statements[0]!, /insert into hi_profile_applications/);
    assert.match(warm.statements[0]!, /insert into hi_outbox/);
    if (usingRedis()) assert.deepEqual(warm.redisCommands, [], 'no Redis command on the request path');
  });

  it('a cold listing costs one more statement, and only once', async () => {
    const cold = await tracedApply(listings[2]!, ADA.id);
    assert.equal(cold.statements.length, 2, cold.statements.join('\n'));
    const warm = await tracedApply(listings[2]!, GRACE.id);
    assert.equal(warm.statements.length, 1, warm.statements.join('\n'));
  });

  it('a snapshot past its freshness is imported again before the application is written', async () => {
    const db = t.database.db;
    await db('hi_profile_snapshots')
      .where({ organization_id: acme.organizationId, profile_user_id: ALAN.id })
      .update({ imported_at: db.raw("now() - interval '25 hours'") });
    const stale = await tracedApply(listings[0]!, ALAN.id);
    assert.match(stale.statements[0]!, /insert into hi_profile_applications/, 'the one statement is tried first');
    assert.ok(stale.statements.length > 2, 'then the import and the write');
    const snapshot = await db('hi_profile_snapshots').where({ organization_id: acme.organizationId, profile_user_id: ALAN.id }).first();
    assert.ok(Date.now() - new Date(snapshot.imported_at).getTime() < 60_000, 'imported again');
  });

  it('a snapshot older than the latest authorization is imported again', async () => {
    const db = t.database.db;
    const key = { organization_id: acme.organizationId, profile_user_id: GRACE.id };
    const { authorized_at: authorizedAt } = await db('hi_candidate_authorizations').where(key).first();
    // The snapshot was taken before the candidate's latest authorization.
    await db('hi_profile_snapshots')
      .where(key)
      .update({ imported_at: new Date(new Date(authorizedAt).getTime() - 60_000) });
    await tracedApply(listings[0]!, GRACE.id);
    const after = await db('hi_profile_snapshots').where(key).first();
    const { authorized_at } = await db('hi_candidate_authorizations').where(key).first();
    assert.ok(new Date(after.imported_at) >= new Date(authorized_at), 'imported after the authorization');
    const application = await db('hi_profile_applications')
      .where({ ...key, listing_id: listings[0] })
      .first();
    assert.equal(application.candidate_name, after.name);
  });
});
