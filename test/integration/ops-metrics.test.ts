/** GET /metrics: who may read it, and what it counts (HTTP, jobs on both adapters, gates). */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import type { JobProcessor, QueueDefinition } from '../../src/kernel/job-queue';
import { UnrecoverableJobError } from '../../src/kernel/job-queue';
import { PluginMetrics } from '../../src/platform/observability/metrics';
import { BullmqJobQueue } from '../../src/platform/queue/bullmq-queue';
import { InlineJobQueue } from '../../src/platform/queue/inline-queue';
import { MeteredJobQueue } from '../../src/platform/queue/metered-queue';
import { createRedis } from '../../src/platform/queue/redis';
import { testLogger } from '../helpers/log-capture';
import { requireRedis, uniqueQueuePrefix, usingRedis } from '../helpers/redis';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { skipBecause } from '../helpers/skip';

/** The value of one sample line, e.g. sample(text, 'x_total', { queue: 'a' }). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? '';
    const parsed = Object.fromEntries([...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => parsed[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('metrics', function () {
  this.timeout(30_000);
  let t: TestHost;
  let other: TestHost;
  before(async () => {
    t = await startTestHost();
    other = await startTestHost();
  });
  after(async () => {
    await t?.close();
    await other?.close();
  });

  describe('GET /metrics access', () => {
    it('is 401 without a credential, 403 for an organization, in the error model', async () => {
      const anonymous = await t.request('GET', '/metrics');
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error.code, 'missing_credentials');
      assert.equal(anonymous.body.error.request_id, anonymous.headers.get('request-id'));
      const { apiKey } = await t.createOrganization();
      const organization = await t.request('GET', '/metrics', { auth: apiKey });
      assert.equal(organization.status, 403);
      assert.equal(organization.body.error.code, 'operator_only');
      const wrong = await t.request('GET', '/metrics', { auth: 'op_not_the_operator_key_at_all_000' });
      assert.equal(wrong.status, 401);
      assert.ok(!wrong.text.includes('hiring_integrations_'));
    });

    it('is Prometheus text for the operator', async () => {
      const response = await t.request('GET', '/metrics', { auth: t.operatorKey });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      assert.match(response.text, /^# HELP hiring_integrations_http_request_duration_seconds /m);
      assert.match(response.text, /^# TYPE hiring_integrations_jobs_processed_total counter$/m);
      assert.match(response.text, /^hiring_integrations_process_cpu_seconds_total /m, 'process metrics too');
    });

    it('names no gauge with the counter suffix _total (Prometheus naming rules)', async () => {
      const text = (await t.request('GET', '/metrics', { auth: t.operatorKey })).text;
      const gaugesNamedTotal = [...text.matchAll(/^# TYPE (\S+_total) (?!counter)\S+$/gm)].map((m) => m[1]);
      assert.deepEqual(gaugesNamedTotal, []);
      for (const kind of ['handles', 'requests', 'resources'])
        assert.match(text, new RegExp(`^# TYPE hiring_integrations_nodejs_active_${kind}_all gauge$`, 'm'));
      assert.ok((sample(text, 'hiring_integrations_nodejs_active_handles_all') ?? 0) > 0, 'the renamed gauge still measures');
    });

    it('passes promtool check metrics (Debian package prometheus)', async function () {
      const probe = spawnSync('promtool', ['--version']);
      if (probe.error) {
        skipBecause(this, 'promtool is not installed (apt-get install -y prometheus)');
      }
      const text = (await t.request('GET', '/metrics', { auth: t.operatorKey })).text;
      const lint = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
      assert.equal(lint.status, 0, `promtool check metrics:\n${lint.stdout}${lint.stderr}`);
    });

    it('is refused to everyone when no operator key is configured', async () => {
      const bare = await startTestHost({ env: { OPERATOR_API_KEY: undefined } });
      try {
        const response = await bare.request('GET', '/metrics', { auth: 'op_test_0123456789abcdef0123456789' });
        assert.equal(response.status, 401);
      } finally {
        await bare.close();
      }
    });
  });

  describe('HTTP requests', () => {
    it('are counted by route template and status, never by raw path', async () => {
      const { apiKey } = await t.createOrganization();
      for (let i = 0; i < 3; i++) assert.equal((await t.request('GET', '/v1/organization', { auth: apiKey })).status, 200);
      assert.equal((await t.request('GET', '/v1/organization')).status, 401);
      assert.equal((await t.request('GET', '/v1/no_such_thing/xyz_42')).status, 404);
      assert.equal((await t.request('POST', '/v1/organizations', { auth: t.operatorKey, body: {} })).status, 400);
      const text = (await t.request('GET', '/metrics', { auth: t.operatorKey })).text;
      const count = (labels: Record<string, string>) => sample(text, 'hiring_integrations_http_request_duration_seconds_count', labels);
      assert.equal(count({ method: 'GET', route: '/v1/organization', status: '200' }), 3);
      assert.equal(count({ method: 'GET', route: '/v1/organization', status: '401' }), 1);
      assert.equal(count({ method: 'POST', route: '/v1/organizations', status: '400' }), 1);
      assert.ok((count({ route: 'unmatched', status: '404' }) ?? 0) >= 1);
      assert.ok(!text.includes('xyz_42'), 'raw paths never become labels');
      assert.ok(sample(text, 'hiring_integrations_http_request_duration_seconds_bucket', { route: '/v1/organization', status: '200', le: '+Inf' }) === 3);
    });

    it('each activation has its own registry: another host in the same process counts only its own', async () => {
      const before = await other.request('GET', '/metrics', { auth: other.operatorKey });
      assert.equal(sample(before.text, 'hiring_integrations_http_request_duration_seconds_count', { route: '/v1/organization', status: '200' }), undefined);
      await other.request('GET', '/healthz');
      const after = await other.request('GET', '/metrics', { auth: other.operatorKey });
      assert.equal(sample(after.text, 'hiring_integrations_http_request_duration_seconds_count', { route: '/healthz', status: '200' }), 1);
    });
  });

  describe('jobs, on both queue adapters', () => {
    const definitions = new Map<string, QueueDefinition>([['metered', { name: 'metered', concurrency: 2, attempts: 2, backoffMs: 10 }]]);
    const processor: JobProcessor<{ outcome: string }> = {
      queue: 'metered',
      async process(job) {
        await new Promise((r) => setTimeout(r, 5));
        if (job.data.outcome === 'flaky') throw new Error('upstream hiccup'); // retried, then final
        if (job.data.outcome === 'bad') throw new UnrecoverableJobError('bad input'); // final at once
      },
    };

    const adapters: Array<[string, () => { queue: MeteredJobQueue<any>; metrics: PluginMetrics; close(): Promise<void> }]> = [
      [
        'in-process',
        () => {
          const metrics = new PluginMetrics({ queues: ['metered'], defaultMetrics: false });
          const queue = new MeteredJobQueue(new InlineJobQueue(definitions, testLogger()), metrics);
          metrics.setQueueDepthSource(queue);
          return { queue, metrics, close: () => queue.close() };
        },
      ],
      [
        'BullMQ',
        () => {
          const metrics = new PluginMetrics({ queues: ['metered'], defaultMetrics: false });
          const connection = createRedis(process.env.REDIS_URL!, 'client');
          const inner = new BullmqJobQueue({
            connection,
            workerConnection: () => createRedis(process.env.REDIS_URL!, 'worker'),
            prefix: uniqueQueuePrefix(),
            definitions,
            logger: testLogger(),
          });
          const queue = new MeteredJobQueue(inner, metrics);
          metrics.setQueueDepthSource(queue);
          return {
            queue,
            metrics,
            async close() {
              await queue.close();
              await connection.quit();
            },
          };
        },
      ],
    ];

    for (const [name, make] of adapters) {
      it(`${name}: counts added jobs, attempts by outcome, durations and depths`, async function () {
        if (name === 'BullMQ') requireRedis(this);
        const { queue, metrics, close } = make();
        try {
          queue.startWorkers([processor]);
          await queue.add('metered', 'ok', { outcome: 'ok' }, { jobId: 'ok-1' });
          await queue.add('metered', 'ok', { outcome: 'ok' }, { jobId: 'ok-2' });
          await queue.add('metered', 'flaky', { outcome: 'flaky' }, { jobId: 'flaky-1' });
          await queue.add('metered', 'bad', { outcome: 'bad' }, { jobId: 'bad-1' });
          const deadline = Date.now() + 15_000;
          let text = '';
          for (;;) {
            text = await metrics.text();
            const processed = ['completed', 'retry', 'failed'].map(
              (outcome) => sample(text, 'hiring_integrations_jobs_processed_total', { queue: 'metered', outcome }) ?? 0,
            );
            if (processed[0] === 2 && processed[1] === 1 && processed[2] === 2) break;
            if (Date.now() > deadline) assert.fail(`jobs not processed as expected: ${processed}\n${text}`);
            await new Promise((r) => setTimeout(r, 50));
          }
          assert.equal(sample(text, 'hiring_integrations_jobs_added_total', { queue: 'metered' }), 4);
          assert.equal(sample(text, 'hiring_integrations_job_duration_seconds_count', { queue: 'metered', outcome: 'completed' }), 2);
          assert.equal(sample(text, 'hiring_integrations_jobs_active', { queue: 'metered' }), 0);
          assert.ok((sample(text, 'hiring_integrations_job_duration_seconds_sum', { queue: 'metered', outcome: 'completed' }) ?? 0) > 0.005);
          assert.equal(sample(text, 'hiring_integrations_queue_jobs', { queue: 'metered', state: 'failed' }), 2, 'depth of the failed set');
          assert.equal(sample(text, 'hiring_integrations_queue_jobs', { queue: 'metered', state: 'waiting' }), 0);
        } finally {
          await close();
        }
      });
    }
  });

  describe('gates and the entitlement cache', () => {
    it('count allowed and skipped checks per action, and cache hits and misses', async () => {
      const metrics = new PluginMetrics({ defaultMetrics: false });
      metrics.recordGateCheck('profile.accept_application', true);
      metrics.recordGateCheck('profile.accept_application', true);
      metrics.recordGateCheck('profile.accept_application', false);
      metrics.recordCacheHit(true);
      metrics.recordCacheHit(false);
      metrics.recordCacheHit(true);
      const text = await metrics.text();
      assert.equal(sample(text, 'hiring_integrations_gate_checks_total', { action: 'profile.accept_application', result: 'allowed' }), 2);
      assert.equal(sample(text, 'hiring_integrations_gate_checks_total', { action: 'profile.accept_application', result: 'skipped' }), 1);
      assert.equal(sample(text, 'hiring_integrations_entitlement_cache_lookups_total', { result: 'hit' }), 2);
      assert.equal(sample(text, 'hiring_integrations_entitlement_cache_lookups_total', { result: 'miss' }), 1);
    });
  });

  it(`queue depths come from ${usingRedis() ? 'Redis' : 'memory'} for every queue in the manifest`, async () => {
    const text = (await t.request('GET', '/metrics', { auth: t.operatorKey })).text;
    for (const queue of t.host.plugin.queues) {
      assert.notEqual(sample(text, 'hiring_integrations_queue_jobs', { queue: queue.name, state: 'waiting' }), undefined, queue.name);
    }
  });
});
