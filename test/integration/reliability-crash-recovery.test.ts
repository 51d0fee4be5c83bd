/**
 * Crash recovery: a real worker process (`hiring-integrations worker`) is killed with
 * SIGKILL in the middle of a job. Its lock expires, another worker process finds the job
 * stalled, runs it again, and the job's effects happen once.
 *
 * The job is held mid-flight by the sandbox provider: a one-shot "timeout" fault makes
 * the profile request of the import hang until the worker is dead. Short lock and stalled
 * intervals (JOB_LOCK_DURATION_MS, JOB_STALLED_INTERVAL_MS) keep the test fast.
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { ListingsStore } from '../../src/standalone/host/listings-store';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { rememberSecret, rememberSecretsIn } from '../helpers/log-capture';
import { BIN, freePort, killAll, startProcess, waitForHttp, type AppProcess } from '../helpers/processes';
import { ADA, licenseProfileApply, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';
import { uniqueQueuePrefix, usingRedis } from '../helpers/redis';
import { request, type TestHost } from '../helpers/test-host';
import { skipBecause } from '../helpers/skip';

const ORIGIN = 'https://jobs.crash.example';

describe('reliability: a process killed mid-flight', function () {
  this.timeout(90_000);
  const databases: TestDatabase[] = [];
  const processes: AppProcess[] = [];

  before(function () {
    if (!usingRedis() || !process.env.DATABASE_URL) {
      skipBecause(this, 'needs DATABASE_URL and REDIS_URL; worker processes share PostgreSQL and Redis, embedded mode');
    }
  });
  after(async () => {
    await killAll();
    for (const database of databases) await database.drop();
  });

  /**
   * A deployment of its own: an API process (which also serves the sandbox provider), an
   * organization with profile apply enabled and licensed, a listing, and a candidate who
   * authorized while no worker ran (so the import job waits in the queue).
   */
  async function deploy(extraEnv: Record<string, string> = {}) {
    const database = await createTestDatabase();
    databases.push(database);
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const operatorKey = `op_${randomBytes(24).toString('hex')}`;
    rememberSecret(operatorKey);
    const prefix = uniqueQueuePrefix();
    const secretKey = randomBytes(32).toString('hex');
    rememberSecret(secretKey);
    const env: Record<string, string> = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      BASE_URL: baseUrl,
      DATABASE_URL: database.url!,
      REDIS_URL: process.env.REDIS_URL!,
      QUEUE_PREFIX: prefix,
      SECRET_KEY: secretKey,
      OPERATOR_API_KEY: operatorKey,
      WORKER_HTTP_PORT: '0',
      LOG_LEVEL: 'info',
      JOB_LOCK_DURATION_MS: '2000',
      JOB_STALLED_INTERVAL_MS: '1000',
      // The held request must outlast the worker, not time out first.
      PROFILE_PROVIDER_TIMEOUT_MS: '30000',
      ...extraEnv,
    };
    const api = startProcess('api', ['node', BIN, 'serve', '--no-worker'], env);
    processes.push(api);
    await waitForHttp(`${baseUrl}/readyz`, api);
    const t = { baseUrl, request: (method, path, options) => request(baseUrl, method, path, options) } as TestHost;

    const created = await request(baseUrl, 'POST', '/v1/organizations', { auth: operatorKey, body: { name: 'Crash Org' } });
    assert.equal(created.status, 201, created.text);
    rememberSecretsIn(created.body);
    const organizationId: string = created.body.organization_id ?? created.body.organization?.id ?? created.body.id;
    const apiKey: string = created.body.api_key;
    const listing = await new ListingsStore(database.db).create({ organizationId, title: 'Nurse', questions: QUESTIONS });
    const settings = await request(baseUrl, 'PATCH', '/v1/organization/settings', {
      auth: apiKey,
      body: { profile_apply: { enabled: true, allowed_origins: [ORIGIN] } },
    });
    assert.equal(settings.status, 200, settings.text);
    // A worker provisions the license applications need, then leaves.
    const provisioner = startProcess('worker-0', ['node', BIN, 'worker'], env);
    processes.push(provisioner);
    await licenseProfileApply(t, apiKey);
    await provisioner.stop('SIGTERM');

    // The candidate connects; no worker runs yet, so the import job waits in the queue.
    const run = await runConnect(t, { organizationId, listingId: listing.id, origin: ORIGIN, button: `Authorize as ${ADA.name}` });
    assert.equal(run.result?.message.type, 'profile-apply:authorized');
    const db = database.db;
    const jobRow = await waitFor(
      async () => db('hi_outbox').where({ queue: 'profile-import' }).whereNotNull('dispatched_at').first(),
      'the import job in the queue',
    );
    return { database, env, baseUrl, operatorKey, prefix, organizationId, apiKey, listing, jobRow };
  }

  it('loses the job to another worker (stalled-job recovery), which completes it once', async () => {
    const { database, env, baseUrl, operatorKey, prefix, organizationId, jobRow } = await deploy();

    // The provider will hold the import's profile request (once), long enough to kill the worker.
    const fault = await request(baseUrl, 'POST', '/sandbox/faults', {
      auth: operatorKey,
      body: { target: 'profile', mode: 'timeout', delay_ms: 30_000, times: 1 },
    });
    assert.equal(fault.status, 201, fault.text);

    const connection = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: null });
    const queue = new Queue('profile-import', { connection, prefix });
    try {
      const first = startProcess('worker-1', ['node', BIN, 'worker'], env);
      processes.push(first);
      // Mid-job: the job is active and its profile request has reached the provider.
      await waitFor(async () => (await queue.getJob(jobRow.job_id))?.isActive(), 'the job to be active on worker 1');
      await waitFor(async () => {
        const faults = await request(baseUrl, 'POST', '/sandbox/faults', {
          auth: operatorKey,
          body: { target: 'token', mode: 'status', status: 503, times: 1 },
        });
        // (Reading the fault list needs a write; a token fault is harmless: no token request follows.)
        const list = faults.body?.data as Array<{ target: string }> | undefined;
        return list && !list.some((f) => f.target === 'profile');
      }, 'the held profile request');
      assert.equal(
        await database
          .db('hi_profile_snapshots')
          .where({ organization_id: organizationId })
          .count<{ n: string }[]>('* as n')
          .then((r) => Number(r[0]!.n)),
        0,
      );
      const killed = await first.stop('SIGKILL');
      assert.equal(killed.signal, 'SIGKILL');
      await request(baseUrl, 'DELETE', '/sandbox/faults', { auth: operatorKey });

      // Another worker recovers the stalled job and finishes it.
      const second = startProcess('worker-2', ['node', BIN, 'worker'], env);
      processes.push(second);
      const job = (await waitFor(
        async () => {
          const j = await queue.getJob(jobRow.job_id);
          return j && (await j.isCompleted()) ? j : undefined;
        },
        'the job to complete on worker 2',
        30_000,
      )) as Job;

      // Once: one snapshot, one authorization, one job, recovered from one stall.
      const snapshots = await database.db('hi_profile_snapshots').where({ organization_id: organizationId });
      assert.equal(snapshots.length, 1);
      assert.equal(snapshots[0].profile_user_id, ADA.id);
      assert.equal((await database.db('hi_candidate_authorizations').where({ organization_id: organizationId })).length, 1);
      assert.equal(job.stalledCounter, 1, 'the job stalled once (its worker died)');
      assert.equal(job.attemptsMade, 1, 'and completed on its first counted attempt');
      assert.deepEqual(job.returnvalue, { skills: 3, credentials: 2 });
      assert.equal((await queue.getJobCounts('waiting', 'active', 'delayed', 'failed')).failed, 0);
      assert.ok(second.logs().some((l) => l.msg === 'worker started'));
      assert.ok(!second.hasExited());
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });

  it('frees the Idempotency-Key of a request whose API process was killed within seconds, and its 409 says when to retry', async () => {
    // An on-demand import waits long enough for the request to still run when its process dies.
    const { database, env, baseUrl, operatorKey, apiKey, listing } = await deploy({ PROFILE_IMPORT_WAIT_MS: '30000' });
    const port = await freePort();
    const doomed = startProcess('api-doomed', ['node', BIN, 'serve', '--no-worker'], { ...env, PORT: String(port) });
    processes.push(doomed);
    const doomedUrl = `http://127.0.0.1:${port}`;
    await waitForHttp(`${doomedUrl}/readyz`, doomed);
    // The provider (served by the first API process) holds the import's profile request.
    const fault = await request(baseUrl, 'POST', '/sandbox/faults', {
      auth: operatorKey,
      body: { target: 'profile', mode: 'timeout', delay_ms: 30_000, times: 1 },
    });
    assert.equal(fault.status, 201, fault.text);
    const path = `/v1/opportunities/listings/${listing.id}/applications/profile`;
    const apply = (url: string) =>
      request(url, 'POST', path, {
        auth: apiKey,
        body: { profile_user_id: ADA.id, answers: { years_experience: 3, work_authorization: true } },
        headers: { 'idempotency-key': 'cut-off-1' },
      });
    const cutOff = apply(doomedUrl).catch((error: Error) => error);
    await waitFor(async () => (await database.db('hi_idempotency_keys').where({ key: 'cut-off-1' }).first())?.owner, 'the request to hold its key');
    await waitFor(async () => {
      const faults = await request(baseUrl, 'POST', '/sandbox/faults', { auth: operatorKey, body: { target: 'token', mode: 'status', status: 503, times: 1 } });
      const list = faults.body?.data as Array<{ target: string }> | undefined;
      return list && !list.some((f) => f.target === 'profile');
    }, 'the held profile request');
    await request(baseUrl, 'DELETE', '/sandbox/faults', { auth: operatorKey });

    const killed = await doomed.stop('SIGKILL');
    assert.equal(killed.signal, 'SIGKILL');
    assert.ok((await cutOff) instanceof Error, 'the client lost its answer with the process');
    const diedAt = Date.now();
    // The client resends at once to another API process, honouring Retry-After.
    const busy: number[] = [];
    let answer = await apply(baseUrl);
    while (answer.status === 409 && Date.now() - diedAt < 20_000) {
      assert.equal(answer.body.error.code, 'idempotency_key_in_use', answer.text);
      const retryAfter = Number(answer.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 3, `Retry-After: ${answer.headers.get('retry-after')}`);
      busy.push(retryAfter);
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      answer = await apply(baseUrl);
    }
    const freedAfter = (Date.now() - diedAt) / 1000;
    console.log(`      (the dead holder's key was free ${freedAfter.toFixed(1)} s after its process died; ${busy.length} answers 409 before)`);
    assert.equal(answer.status, 201, answer.text);
    assert.ok(freedAfter < 5, `the key was free only ${freedAfter} s after its holder died`);
    assert.equal((await database.db('hi_profile_applications').where({ listing_id: listing.id })).length, 1);
    // And a replay from now on.
    const again = await apply(baseUrl);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
  });
});
