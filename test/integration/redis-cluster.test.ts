/**
 * On a real Redis Cluster (three masters of the test's own, Debian's redis-server joined by
 * `redis-cli --cluster create`), with REDIS_CLUSTER=true and REDIS_URL naming one node: two
 * plugin processes on one database run the queues (BullMQ's multi-key scripts, job
 * schedulers), tell each other about cache changes (pub/sub across nodes), share rate-limit
 * counters (rate-limiter-flexible's scripts) and keep the Redis data-loss marker. A compact
 * subset of the queue, cache, rate-limit and scale-out tests, not the whole suite again.
 */
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import { createStandaloneHost, type StandaloneHost } from '../../src/standalone/host/standalone-host';
import { testConfig } from '../helpers/config';
import { testLogger } from '../helpers/log-capture';
import { ADA, enableProfileApply, GRACE, licenseProfileApply, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';
import { usingRedis } from '../helpers/redis';
import { DedicatedRedisCluster } from '../helpers/redis-cluster';
import { request, startTestHost, type TestHost } from '../helpers/test-host';
import { skipBecause } from '../helpers/skip';

const ORIGIN = 'https://jobs.cluster.example';
const ANSWERS = { years_experience: 5, work_authorization: true };
const PER_MINUTE = 60;

describe('Redis Cluster: queues, cache invalidations, rate limits and two processes on three masters', function () {
  this.timeout(120_000);
  let cluster: DedicatedRedisCluster | undefined;
  let t: TestHost | undefined;
  let b: { host: StandaloneHost; server: Server; baseUrl: string } | undefined;

  before(async function () {
    if (!usingRedis()) {
      skipBecause(this, 'needs REDIS_URL (CI mode) and redis-server; embedded mode');
    }
    cluster = await DedicatedRedisCluster.start(3);
    const env = { REDIS_URL: cluster.url, REDIS_CLUSTER: 'true', RATE_LIMIT_PER_MINUTE: String(PER_MINUTE), ENTITLEMENT_CACHE_TTL_SECONDS: '3600' };
    t = await startTestHost({ env });
    // Process B: its own connections and workers, the same database, queue prefix and cluster.
    const host = await createStandaloneHost({
      config: testConfig({ ...env, DATABASE_URL: t.database.url, BASE_URL: t.baseUrl, QUEUE_PREFIX: t.config.queuePrefix }),
      logger: testLogger(),
      db: t.database.db,
      runWorkers: true,
    });
    const server = createServer(host.app);
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    b = { host, server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  });
  after(async () => {
    if (b) {
      b.server.closeAllConnections();
      await new Promise((resolve) => b!.server.close(resolve));
      await b.host.close();
    }
    await t?.close();
    await cluster?.stop();
  });

  const clusterClient = () => {
    const client = new Cluster([{ host: '127.0.0.1', port: cluster!.nodes[0]!.port }], { redisOptions: { maxRetriesPerRequest: null } });
    client.on('error', () => undefined);
    return client;
  };

  it('runs the queues: applications sent to either process are delivered once each, a license is provisioned, and every queue key sits in one slot', async () => {
    const host = t!;
    const { organizationId, apiKey } = await host.createOrganization('Cluster Org');
    await licenseProfileApply(host, apiKey);
    await enableProfileApply(host, apiKey, [ORIGIN]);
    const listings: string[] = [];
    for (let i = 0; i < 3; i++) listings.push((await host.host.listings.create({ organizationId, title: `Role ${i}`, questions: QUESTIONS })).id);
    for (const candidate of [ADA, GRACE]) {
      const run = await runConnect(host, { organizationId, listingId: listings[0]!, origin: ORIGIN, button: `Authorize as ${candidate.name}` });
      assert.equal(run.result?.message.type, 'profile-apply:authorized');
    }
    await waitFor(async () => (await host.database.db('hi_profile_snapshots').where({ organization_id: organizationId })).length === 2, 'the imports');

    const submitted: string[] = [];
    for (const [i, listingId] of listings.entries()) {
      for (const candidate of [ADA, GRACE]) {
        const baseUrl = i % 2 === 0 ? host.baseUrl : b!.baseUrl;
        const response = await request(baseUrl, 'POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
          auth: apiKey,
          body: { profile_user_id: candidate.id, answers: ANSWERS },
        });
        assert.equal(response.status, 201, response.text);
        submitted.push(response.body.application_id);
      }
    }
    await waitFor(
      async () => (await host.database.db('host_pipeline_applications').whereIn('application_id', submitted)).length === submitted.length,
      'every application delivered',
      30_000,
    );
    const delivered = await host.database.db('host_pipeline_applications').whereIn('application_id', submitted);
    assert.equal(delivered.length, submitted.length, 'each once');

    // BullMQ's keys (jobs, lists, the schedulers of the sweep) all hash to the prefix's slot, on one master.
    const client = clusterClient();
    try {
      const slot = await client.cluster('KEYSLOT', host.config.queuePrefix);
      const perNode = await Promise.all(
        cluster!.nodes.map(async (node) => {
          const direct = new Redis(node.url);
          try {
            return (await direct.keys(`${host.config.queuePrefix}:*`)).length;
          } finally {
            direct.disconnect();
          }
        }),
      );
      assert.equal(perNode.filter((n) => n > 0).length, 1, `queue keys per node: ${perNode.join(', ')}`);
      const owner = await client.cluster('KEYSLOT', `${host.config.queuePrefix}:pipeline-delivery:id`);
      assert.equal(owner, slot);
      const sweep = new Queue('reconciliation', { connection: client, prefix: host.config.queuePrefix });
      try {
        assert.equal((await sweep.getJobSchedulers()).length, 1, 'the reconciliation sweep is scheduled');
      } finally {
        await sweep.close();
      }
      // The data-loss marker each process keeps.
      assert.ok(await client.get(`${host.config.queuePrefix}:redis-epoch`), 'the Redis epoch marker');
    } finally {
      client.disconnect();
    }
  });

  it('tells the other process about a change over pub/sub: settings disabled through A are refused by B within 1 s', async () => {
    const host = t!;
    const { organizationId, apiKey } = await host.createOrganization('Cluster Cache Org');
    await licenseProfileApply(host, apiKey);
    await enableProfileApply(host, apiKey, [ORIGIN]);
    const listing = await host.host.listings.create({ organizationId, title: 'Cached', questions: QUESTIONS });
    // B warms its caches (key, settings, listing): the application is refused only for want of a profile.
    const probe = () =>
      request(b!.baseUrl, 'POST', `/v1/opportunities/listings/${listing.id}/applications/profile`, {
        auth: apiKey,
        body: { profile_user_id: ADA.id, answers: ANSWERS },
      });
    const warm = await probe();
    assert.notEqual(warm.body?.error?.code, 'integration_disabled', warm.text);
    const changedAt = Date.now();
    const disabled = await host.request('PATCH', '/v1/organization/settings', { auth: apiKey, body: { profile_apply: { enabled: false } } });
    assert.equal(disabled.status, 200, disabled.text);
    const refusedAt = await waitFor(async () => ((await probe()).body?.error?.code === 'integration_disabled' ? Date.now() : undefined), 'B to refuse', 5_000);
    assert.ok(refusedAt - changedAt < 1_000, `B refused ${refusedAt - changedAt} ms after the change (its cache TTL is an hour)`);
  });

  it('shares rate-limit counters between the processes: the budget is spent across both, then both answer 429', async () => {
    const host = t!;
    const { apiKey } = await host.createOrganization('Cluster Rate Org');
    const statuses: number[] = [];
    for (let i = 0; i < PER_MINUTE; i++) {
      const response = await request(i % 2 === 0 ? host.baseUrl : b!.baseUrl, 'GET', '/v1/organization', { auth: apiKey });
      statuses.push(response.status);
    }
    assert.deepEqual([...new Set(statuses)], [200], 'the budget, half through each process');
    for (const baseUrl of [host.baseUrl, b!.baseUrl]) {
      const over = await request(baseUrl, 'GET', '/v1/organization', { auth: apiKey });
      assert.equal(over.status, 429, over.text);
      assert.equal(over.body.error.code, 'rate_limited');
      assert.ok(Number(over.headers.get('retry-after')) > 0);
    }
  });
});
