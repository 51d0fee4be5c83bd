/**
 * The reconciliation sweep restores what a Redis without persistence forgot: a backlog of
 * application deliveries and license provisionings waits in Redis (the outbox has marked
 * it dispatched) while no worker runs; Redis is killed and comes back empty. Two sweeps run
 * at once (as on two workers) and put each job back exactly once; then two workers start,
 * and every application is delivered and every license settles within the sweep's bound,
 * each exactly once (lost 0, duplicated 0).
 *
 * The test's own redis-server (no RDB, no AOF) on a free port; its own database.
 */
import { strict as assert } from 'node:assert';
import { Queue } from 'bullmq';
import { queueDefinitions } from '../../src/composition/infrastructure';
import { loadManifest } from '../../src/platform/manifest/manifest';
import { BullmqJobQueue } from '../../src/platform/queue/bullmq-queue';
import { closeRedis, createRedis } from '../../src/platform/queue/redis';
import { ApplicationDeliveryReconciler } from '../../src/features/applications/storage/pipeline-delivery-reconciler';
import { InterviewReminderReconciler } from '../../src/features/reminders/storage/interview-reminder-reconciler';
import { LicenseReconciler } from '../../src/features/licensing/storage/provisioning-reconciler';
import { ReconciliationSweep } from '../../src/features/operations/domain/reconciliation-sweep';
import { createStandaloneHost, type StandaloneHost } from '../../src/standalone/host/standalone-host';
import { testLogger } from '../helpers/log-capture';
import { ADA, ALAN, enableProfileApply, GRACE, KATHERINE, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';
import { usingRedis } from '../helpers/redis';
import { DedicatedRedis } from '../helpers/redis-server';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { skipBecause } from '../helpers/skip';

const ORIGIN = 'https://jobs.reconcile.example';
const ANSWERS = { years_experience: 4, work_authorization: true };
const ACTIONS = [
  'background_checks.license_verification',
  'scheduling.interview_scheduling',
  'hris.employee_sync',
  'esign.send_offer',
  'hris.volunteer_management',
];
const BOUND_SECONDS = 2;
const INTERVAL_SECONDS = 1;

describe('reliability: the reconciliation sweep after Redis lost a backlog', function () {
  this.timeout(90_000);
  let redis: DedicatedRedis | undefined;
  let t: TestHost | undefined;
  const workers: StandaloneHost[] = [];

  const startWorker = async () => {
    const worker = await createStandaloneHost({ config: t!.config, logger: testLogger(), db: t!.database.db, runWorkers: true });
    workers.push(worker);
    return worker;
  };

  before(async function () {
    if (!usingRedis()) {
      skipBecause(this, 'needs REDIS_URL (CI mode) and redis-server; embedded mode');
    }
    redis = await DedicatedRedis.start();
    // The API process runs no workers; workers are separate hosts on the same database and Redis.
    t = await startTestHost({
      env: { REDIS_URL: redis.url, RECONCILE_AFTER_SECONDS: String(BOUND_SECONDS), RECONCILE_INTERVAL_SECONDS: String(INTERVAL_SECONDS) },
      runWorkers: false,
    });
  });
  after(async () => {
    for (const worker of workers.splice(0)) await worker.close().catch(() => undefined);
    await t?.close();
    await redis?.stop();
  });

  it('puts every forgotten job back once, even with two sweeps at once; every application is delivered and every license settles exactly once', async () => {
    const host = t!;
    const db = host.database.db;
    const { organizationId, apiKey } = await host.createOrganization('Reconcile Org');
    const listings: string[] = [];
    for (let i = 0; i < 5; i++) listings.push((await host.host.listings.create({ organizationId, title: `Role ${i}`, questions: QUESTIONS })).id);
    const candidates = [ADA, GRACE, ALAN, KATHERINE];

    // Set up with a worker running: the license and the candidates' profile imports.
    const setupWorker = await startWorker();
    await enableProfileApply(host, apiKey, [ORIGIN]);
    for (const candidate of candidates) {
      const run = await runConnect(host, { organizationId, listingId: listings[0]!, origin: ORIGIN, button: `Authorize as ${candidate.name}` });
      assert.equal(run.result?.message.type, 'profile-apply:authorized');
    }
    await waitFor(async () => (await db('hi_profile_snapshots').where({ organization_id: organizationId })).length === candidates.length, 'the imports');
    await setupWorker.close();
    workers.splice(workers.indexOf(setupWorker), 1);

    // The backlog, with no worker running: it goes to Redis, and the outbox marks it dispatched.
    const applicationIds: string[] = [];
    for (const listingId of listings) {
      for (const candidate of candidates) {
        const response = await host.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
          auth: apiKey,
          body: { profile_user_id: candidate.id, answers: ANSWERS },
        });
        assert.equal(response.status, 201, response.text);
        applicationIds.push(response.body.application_id);
      }
    }
    const licenseIds: string[] = [];
    for (const action of ACTIONS) {
      const response = await host.request('POST', `/v1/integrations/licenses/${action}/activate`, { auth: apiKey });
      assert.equal(response.status, 202, response.text);
      licenseIds.push(response.body.id);
    }
    await waitFor(async () => Number((await db('hi_outbox').whereNull('dispatched_at').count<{ n: string }[]>('* as n'))[0]!.n) === 0, 'the outbox dispatched');
    const connection = createRedis(redis!.url, 'client');
    const deliveries = new Queue('pipeline-delivery', { connection, prefix: host.config.queuePrefix });
    const provisionings = new Queue('license-provisioning', { connection, prefix: host.config.queuePrefix });
    try {
      assert.equal(await deliveries.getWaitingCount(), applicationIds.length, 'the deliveries wait in Redis');

      // Redis without persistence dies and comes back empty.
      await redis!.stop();
      await redis!.start();
      await waitFor(async () => (await connection.ping().catch(() => undefined)) === 'PONG', 'Redis back');
      // Forgotten: a fresh server (no RDB, no AOF). The API process's data-loss watch may
      // already be putting the backlog back; the sweeps below must leave each job once either way.
      const uptime = Number(/uptime_in_seconds:(\d+)/.exec(await connection.info('server'))?.[1]);
      assert.ok(uptime <= 5, `Redis restarted (up ${uptime} s)`);

      // Two sweeps at once, each with its own connections, as on two worker processes.
      await new Promise((resolve) => setTimeout(resolve, BOUND_SECONDS * 1000 + 100));
      const sweeps = [0, 1].map(() => {
        const client = createRedis(redis!.url, 'client');
        const queue = new BullmqJobQueue({
          connection: client,
          workerConnection: () => createRedis(redis!.url, 'worker'),
          prefix: host.config.queuePrefix,
          definitions: queueDefinitions(loadManifest()),
          logger: testLogger(),
        });
        const sweep = new ReconciliationSweep(
          [new LicenseReconciler(db), new ApplicationDeliveryReconciler(db), new InterviewReminderReconciler(db)],
          queue,
          testLogger(),
          { boundMs: BOUND_SECONDS * 1000, batchSize: 500 },
        );
        return { queue, sweep, client };
      });
      try {
        const reports = await Promise.all(sweeps.map((s) => s.sweep.run()));
        for (const report of reports) {
          assert.equal(report.applications!.found, applicationIds.length);
          assert.equal(report.licenses!.found, licenseIds.length);
          assert.equal(report.applications!.error ?? 0, 0);
        }
        // Each job once: one job per application and per license, whatever the two sweeps did.
        const delivering = await deliveries.getJobs(['waiting']);
        assert.deepEqual(delivering.map((j) => j.id).sort(), applicationIds.map((id) => `deliver-${id}`).sort());
        const provisioning = await provisionings.getJobs(['waiting']);
        assert.deepEqual(provisioning.map((j) => j.id).sort(), licenseIds.map((id) => `provision-${id}`).sort());
        // A second pass finds them queued and adds nothing.
        const again = await sweeps[0]!.sweep.run();
        assert.equal(again.applications!.pending, applicationIds.length);
        assert.equal(again.applications!.added ?? 0, 0);
      } finally {
        // The adapter closes its workers' connections; the client connection is its owner's.
        for (const s of sweeps) {
          await s.queue.close();
          await closeRedis(s.client);
        }
      }

      // Two workers start: everything runs, once.
      await startWorker();
      await startWorker();
      await waitFor(
        async () => (await db('host_pipeline_applications').whereIn('application_id', applicationIds)).length === applicationIds.length,
        'every application delivered',
        30_000,
      );
      await waitFor(
        async () => (await db('hi_licenses').whereIn('id', licenseIds).where({ status: 'active' })).length === licenseIds.length,
        'every license active',
        30_000,
      );
      // Quiet for longer than a sweep interval and its bound: nothing runs twice.
      await new Promise((resolve) => setTimeout(resolve, (BOUND_SECONDS + 2 * INTERVAL_SECONDS) * 1000));
      const delivered = await db('host_pipeline_applications').whereIn('application_id', applicationIds);
      const events = workers
        .flatMap((w) => w.hooks.recent)
        .filter((e) => e.hook === 'application.submitted')
        .map((e) => e.payload.application_id as string);
      const provisioned = await db('hi_sandbox_provisionings').whereIn('license_id', licenseIds);
      const activated = workers
        .flatMap((w) => w.hooks.recent)
        .filter((e) => e.hook === 'license.activated' && licenseIds.includes(e.payload.license_id as string));
      const lost =
        applicationIds.filter((id) => !delivered.some((d) => d.application_id === id)).length +
        licenseIds.filter((id) => !provisioned.some((p) => p.license_id === id)).length;
      const duplicated =
        delivered.length -
        applicationIds.length +
        (events.length - applicationIds.length) +
        (provisioned.length - licenseIds.length) +
        (activated.length - licenseIds.length);
      assert.deepEqual({ lost, duplicated }, { lost: 0, duplicated: 0 });
      assert.deepEqual([...new Set(events)].sort(), [...applicationIds].sort());
    } finally {
      await deliveries.close();
      await provisionings.close();
      await closeRedis(connection);
    }
  });
});
