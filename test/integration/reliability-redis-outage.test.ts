/**
 * No lost work: with Redis down, submitting applications, connecting candidates,
 * activating licenses, subscribing to a package and a hook that schedules an interview
 * reminder still succeed, because each record and the message that starts its job are
 * written in one database transaction (the outbox). Once Redis is back on the same port,
 * the relay hands the messages over and every job runs exactly once.
 *
 * The test starts a redis-server of its own on a free port and kills it (SIGKILL: an
 * outage, not a shutdown); the shared Redis is never touched.
 */
import { strict as assert } from 'node:assert';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { processedJobs } from '../helpers/job-metrics';
import { settledLicense } from '../helpers/licensing';
import { ADA, ALAN, enableProfileApply, GRACE, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';
import { usingRedis } from '../helpers/redis';
import { DedicatedRedis } from '../helpers/redis-server';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { skipBecause } from '../helpers/skip';

const ORIGIN = 'https://jobs.outage.example';
const ANSWERS = { years_experience: 4, work_authorization: true };

describe('reliability: no lost work while Redis is down', function () {
  this.timeout(90_000);
  let redis: DedicatedRedis | undefined;
  let t: TestHost | undefined;

  before(async function () {
    if (!usingRedis()) {
      skipBecause(this, 'needs REDIS_URL (CI mode) and redis-server; embedded mode');
    }
    redis = await DedicatedRedis.start();
    t = await startTestHost({ env: { REDIS_URL: redis.url } });
  });
  after(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('accepts applications, authorizations, activations and a subscription during the outage and runs each of their jobs once afterwards', async () => {
    const host = t!;
    const { organizationId, apiKey } = await host.createOrganization('Outage Org');
    const listings = [];
    for (let i = 0; i < 3; i++) listings.push((await host.host.listings.create({ organizationId, title: `Role ${i}`, questions: QUESTIONS })).id);
    await enableProfileApply(host, apiKey, [ORIGIN]);
    // The license applications need (when the apply gate checks it).
    const license = await host.request('POST', '/v1/integrations/licenses/profile.accept_application/activate', { auth: apiKey });
    assert.ok(license.status === 202 || license.status === 200, license.text);
    assert.equal((await settledLicense(host, apiKey, license.body.id)).status, 'active');
    // And email interview reminders, for a hook fired during the outage.
    const reminders = await host.request('POST', '/v1/integrations/licenses/notifications.interview_reminder/activate', { auth: apiKey });
    assert.equal((await settledLicense(host, apiKey, reminders.body.id)).status, 'active');

    // Before the outage: two candidates authorize and their profiles are imported.
    for (const candidate of [ADA, GRACE]) {
      const run = await runConnect(host, { organizationId, listingId: listings[0]!, origin: ORIGIN, button: `Authorize as ${candidate.name}` });
      assert.equal(run.result?.message.type, 'profile-apply:authorized');
    }
    await waitFor(async () => (await processedJobs(host, 'profile-import')) === 2, 'the two imports');

    // The outage.
    await redis!.stop();
    const pendingBefore = await host.database.db('hi_outbox').whereNull('dispatched_at').count<{ n: string }[]>('* as n');
    assert.equal(Number(pendingBefore[0]!.n), 0);

    const submitted: string[] = [];
    for (const listingId of listings) {
      for (const candidate of [ADA, GRACE]) {
        const response = await host.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
          auth: apiKey,
          body: { profile_user_id: candidate.id, cover_letter: 'Applied while Redis was down', answers: ANSWERS },
        });
        assert.equal(response.status, 201, response.text);
        submitted.push(response.body.application_id);
      }
    }
    // A candidate connects during the outage: the authorization and its import job are stored.
    const during = await runConnect(host, { organizationId, listingId: listings[1]!, origin: ORIGIN, button: `Authorize as ${ALAN.name}` });
    assert.equal(during.result?.message.type, 'profile-apply:authorized', JSON.stringify(during.result?.message));

    // Licenses: two actions à la carte and a package, activated while Redis is down.
    const activated: string[] = [];
    for (const actionKey of ['background_checks.credentialing', 'scheduling.interview_scheduling']) {
      const response = await host.request('POST', `/v1/integrations/licenses/${actionKey}/activate`, { auth: apiKey });
      assert.equal(response.status, 202, response.text);
      assert.equal(response.body.status, 'provisioning');
      activated.push(response.body.id);
    }
    const subscribed = await host.request('POST', '/v1/integrations/packages/schools/subscribe', { auth: apiKey });
    assert.ok(subscribed.status === 201 || subscribed.status === 202, subscribed.text);
    const packageLicenses = await waitFor(async () => {
      const rows = await host.database.db('hi_licenses').where({ organization_id: organizationId, subscription_id: subscribed.body.id });
      return rows.length > 0 ? rows : undefined;
    }, 'the package licenses');
    const licenses = [...activated, ...packageLicenses.map((l: { id: string }) => l.id)];

    // The host fires a hook: the reminder is scheduled (its job waits in the outbox).
    const fired = await host.request('POST', '/host/v1/hooks/interview.scheduled', {
      auth: host.operatorKey,
      body: {
        organization_id: organizationId,
        payload: {
          interview_id: 'int_outage',
          candidate: { name: 'Ada', email: 'ada@example.com' },
          starts_at: new Date(Date.now() + 30 * 60_000).toISOString(),
        },
      },
    });
    assert.equal(fired.status, 200, fired.text);
    assert.deepEqual(fired.body.handled, ['interview-reminder'], fired.text);

    // Nothing ran, nothing was lost: every message waits in the outbox.
    const waiting = await host.database.db('hi_outbox').whereNull('dispatched_at').select('queue', 'job_id');
    assert.deepEqual(
      waiting
        .filter((r) => r.queue !== 'license-provisioning')
        .map((r) => r.queue)
        .sort(),
      [...Array(6).fill('pipeline-delivery'), 'profile-import', 'interview-reminders'].sort(),
    );
    assert.ok(waiting.filter((r) => r.queue === 'license-provisioning').length >= licenses.length, JSON.stringify(waiting));
    assert.deepEqual((await host.database.db('hi_licenses').whereIn('id', licenses).whereNot({ status: 'provisioning' })).length, 0);
    assert.deepEqual(
      waiting
        .filter((r) => r.queue === 'pipeline-delivery')
        .map((r) => r.job_id)
        .sort(),
      submitted.map((id) => `deliver-${id}`).sort(),
    );
    assert.equal((await host.database.db('host_pipeline_applications').whereIn('application_id', submitted)).length, 0);

    // Redis comes back on the same port (empty: it kept nothing).
    await redis!.start();
    await waitFor(
      async () => (await host.database.db('host_pipeline_applications').whereIn('application_id', submitted)).length === submitted.length,
      'every application in the pipeline',
      30_000,
    );
    await waitFor(
      async () => (await host.database.db('hi_profile_snapshots').where({ organization_id: organizationId, profile_user_id: ALAN.id })).length === 1,
      'the import of the candidate who connected during the outage',
      30_000,
    );
    await waitFor(
      async () => (await host.database.db('hi_licenses').whereIn('id', licenses).where({ status: 'active' })).length === licenses.length,
      'every license active',
      30_000,
    );
    await waitFor(
      async () => Number((await host.database.db('hi_outbox').whereNull('dispatched_at').count<{ n: string }[]>('* as n'))[0]!.n) === 0,
      'an empty outbox',
    );
    // Quiet queues: nothing waiting, running or scheduled for a retry.
    const connection = new Redis(redis!.url, { maxRetriesPerRequest: null });
    try {
      for (const name of ['pipeline-delivery', 'profile-import', 'license-provisioning', 'interview-reminders']) {
        const queue = new Queue(name, { connection, prefix: host.config.queuePrefix });
        await waitFor(async () => {
          const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed');
          return Object.values(counts).every((n) => n === 0);
        }, `${name} drained`);
        await queue.close();
      }
    } finally {
      connection.disconnect();
    }

    // Exactly once: six deliveries, three imports (two before, one after), one event each.
    assert.equal(await processedJobs(host, 'pipeline-delivery'), 6);
    assert.equal(await processedJobs(host, 'profile-import'), 3);
    assert.equal(await processedJobs(host, 'pipeline-delivery', 'failed'), 0);
    const events = host.host.hooks.recent.filter((e) => e.hook === 'application.submitted').map((e) => e.payload.application_id as string);
    assert.deepEqual(events.sort(), [...submitted].sort());
    const delivered = await host.database.db('hi_profile_applications').whereIn('id', submitted).whereNotNull('delivered_at');
    assert.equal(delivered.length, submitted.length);
    // Each license provisioned once: one sandbox provisioning record each, and no job failed.
    const provisioned = await host.database.db('hi_sandbox_provisionings').whereIn('license_id', licenses);
    assert.deepEqual(provisioned.map((p) => p.license_id).sort(), [...licenses].sort());
    assert.equal(await processedJobs(host, 'license-provisioning', 'failed'), 0);
    assert.equal(await processedJobs(host, 'license-provisioning', 'retry'), 0);
    // The reminder of the hook fired during the outage was sent, once.
    await waitFor(
      async () => host.host.hooks.recent.some((e) => e.hook === 'interview.reminder_sent' && e.payload.interview_id === 'int_outage') || undefined,
      'the reminder sent',
    );
    assert.equal(await processedJobs(host, 'interview-reminders'), 1);
    assert.equal((await host.database.db('hi_connector_deliveries').where({ action_key: 'notifications.interview_reminder' })).length, 1);
  });

  it('notices that Redis came back empty and re-enqueues the jobs it lost within a minute, with the default sweep bound', async () => {
    const host = t!;
    assert.equal(host.config.reconcileAfterSeconds, 600, 'the default bound: only the data-loss watch can bring the jobs back in time');
    const { organizationId, apiKey } = await host.createOrganization('Lost Redis Org');
    await enableProfileApply(host, apiKey, [ORIGIN]);
    const license = await host.request('POST', '/v1/integrations/licenses/profile.accept_application/activate', { auth: apiKey });
    assert.equal((await settledLicense(host, apiKey, license.body.id)).status, 'active');
    const first = await host.host.listings.create({ organizationId, title: 'Role', questions: QUESTIONS });
    const run = await runConnect(host, { organizationId, listingId: first.id, origin: ORIGIN, button: `Authorize as ${ADA.name}` });
    assert.equal(run.result?.message.type, 'profile-apply:authorized');
    await waitFor(async () => (await host.database.db('hi_profile_snapshots').where({ organization_id: organizationId })).length === 1, 'the import');

    // Deliveries are handed to Redis but held there (the queue paused): what a crash leaves.
    const connection = new Redis(redis!.url, { maxRetriesPerRequest: null });
    const delivery = new Queue('pipeline-delivery', { connection, prefix: host.config.queuePrefix });
    const submitted: string[] = [];
    try {
      await delivery.pause();
      for (let i = 0; i < 8; i++) {
        const listing = await host.host.listings.create({ organizationId, title: `Held ${i}`, questions: QUESTIONS });
        const response = await host.request('POST', `/v1/opportunities/listings/${listing.id}/applications/profile`, {
          auth: apiKey,
          body: { profile_user_id: ADA.id, answers: ANSWERS },
        });
        assert.equal(response.status, 201, response.text);
        submitted.push(response.body.application_id);
      }
      // Held in Redis, and the outbox knows it handed them over (only the sweep can bring them back).
      const jobIds = submitted.map((id) => `deliver-${id}`);
      await waitFor(async () => {
        const counts = await delivery.getJobCounts('waiting');
        const undispatched = await host.database.db('hi_outbox').whereIn('job_id', jobIds).whereNull('dispatched_at');
        return ((counts.waiting ?? 0) >= submitted.length && undispatched.length === 0) || undefined;
      }, 'the deliveries held in Redis and marked dispatched');
    } finally {
      await delivery.close();
      connection.disconnect();
    }
    assert.equal((await host.database.db('host_pipeline_applications').whereIn('application_id', submitted)).length, 0);

    // Redis dies without persistence and comes back empty.
    await redis!.stop();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await redis!.start();
    const back = Date.now();
    await waitFor(
      async () => (await host.database.db('host_pipeline_applications').whereIn('application_id', submitted)).length === submitted.length,
      'every lost delivery back in its queue and delivered',
      60_000,
    );
    const seconds = (Date.now() - back) / 1000;
    console.log(`      (the ${submitted.length} lost deliveries were delivered ${seconds.toFixed(1)} s after Redis returned)`);
    assert.ok(seconds < 60, `${seconds} s`);
    const delivered = await host.database.db('host_pipeline_applications').whereIn('application_id', submitted);
    assert.equal(new Set(delivered.map((d) => d.application_id)).size, delivered.length, 'each delivered once');
  });
});
