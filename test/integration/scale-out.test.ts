/**
 * Scale-out, as docker compose runs it: two API processes and two worker processes,
 * started with the commands and environment of docker/compose.yml (read from it), on a
 * fresh PostgreSQL database and a Redis queue prefix of their own.
 *
 *  1. The OAuth connect flow starts on one API process and its callback lands on the
 *     other; applications and license activations are submitted to both; every job runs
 *     exactly once and every record is there.
 *  2. A worker gets SIGTERM while jobs are queued and running: it exits 0 and no job is lost.
 */
import { strict as assert } from 'node:assert';
import { Queue } from 'bullmq';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { rememberSecret, rememberSecretsIn } from '../helpers/log-capture';
import {
  containerArgv,
  freePort,
  killAll,
  readCompose,
  readEnvExample,
  runToCompletion,
  serviceEnvironment,
  startProcess,
  testSecrets,
  waitForHttp,
  type AppProcess,
} from '../helpers/processes';
import { ADA, ALAN, browse, CookieJar, GRACE, KATHERINE, licenseProfileApply, parseConsentForm, popupResult, waitFor } from '../helpers/profile-flow';
import { uniqueQueuePrefix, usingRedis } from '../helpers/redis';
import { request } from '../helpers/test-host';
import { ListingsStore } from '../../src/standalone/host/listings-store';
import { skipBecause } from '../helpers/skip';

const ORIGIN = 'https://jobs.example.com';
const CANDIDATES = [ADA, GRACE, ALAN, KATHERINE];

interface Installation {
  database: TestDatabase;
  prefix: string;
  operatorKey: string;
  apis: Array<{ proc: AppProcess; url: string }>;
  workers: Array<{ proc: AppProcess; metricsUrl: string }>;
  apiEnv: Record<string, string>;
  workerEnv: Record<string, string>;
}

async function install(): Promise<Installation> {
  const database = await createTestDatabase();
  const secrets = testSecrets();
  const vars = { ...readEnvExample(), ...secrets };
  const compose = readCompose();
  const prefix = uniqueQueuePrefix();
  const shared = {
    DATABASE_URL: database.url!,
    REDIS_URL: process.env.REDIS_URL!,
    QUEUE_PREFIX: prefix,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // Rate limits are not under test here (0 turns every budget off: the API's, and the per-IP public, connect and
    // failed-authentication budgets, which 120 applications and eight connect flows from one address within a minute can exhaust).
    RATE_LIMIT_PER_MINUTE: '0',
    // The operator's mail relay (a deployment default): email reminders can run; nothing here sends.
    SMTP_URL: 'smtp://127.0.0.1:2525?security=none',
    SMTP_FROM: 'jobs@example.com',
  };
  const [p1, p2, w1, w2] = [await freePort(), await freePort(), await freePort(), await freePort()];
  // One public address for both API processes, as behind a load balancer.
  const baseUrl = `http://127.0.0.1:${p1}`;
  // The compose network's http://api:3000 is the load balancer's address here.
  const apiEnv = { ...serviceEnvironment(compose.services.api!, vars), ...shared, BASE_URL: baseUrl, SANDBOX_INTERNAL_URL: baseUrl };
  const workerEnv = { ...serviceEnvironment(compose.services.worker!, vars), ...shared, BASE_URL: baseUrl, SANDBOX_INTERNAL_URL: baseUrl };
  const migrate = runToCompletion(containerArgv('migrate'), { ...serviceEnvironment(compose.services.migrate!, vars), ...shared });
  assert.equal(migrate.code, 0, `migrate: ${migrate.stderr}`);
  const apis = [p1, p2].map((port, i) => ({
    proc: startProcess(`api-${i + 1}`, containerArgv('api'), { ...apiEnv, PORT: String(port) }),
    url: `http://127.0.0.1:${port}`,
  }));
  const workers = [w1, w2].map((port, i) => ({
    proc: startProcess(`worker-${i + 1}`, containerArgv('worker'), { ...workerEnv, WORKER_HTTP_PORT: String(port) }),
    metricsUrl: `http://127.0.0.1:${port}/metrics`,
  }));
  await Promise.all([
    ...apis.map((a) => waitForHttp(`${a.url}/readyz`, a.proc)),
    ...workers.map((w) => waitForHttp(w.metricsUrl.replace('/metrics', '/readyz'), w.proc)),
  ]);
  return { database, prefix, operatorKey: secrets.OPERATOR_API_KEY, apis, workers, apiEnv, workerEnv };
}

/** An organization through the CLI (as an operator would, in the api container), with profile apply on. */
async function organization(inst: Installation, name: string): Promise<{ id: string; apiKey: string }> {
  const created = runToCompletion([...containerArgv('api').slice(0, 2), 'org', 'create', '--name', name, '--json'], inst.apiEnv);
  assert.equal(created.code, 0, created.stderr);
  const out = JSON.parse(created.stdout);
  rememberSecretsIn(out);
  const enabled = await request(inst.apis[1]!.url, 'PATCH', '/v1/organization/settings', {
    auth: out.api_key,
    body: { profile_apply: { enabled: true, allowed_origins: [ORIGIN] } },
  });
  assert.equal(enabled.status, 200, enabled.text);
  // The license applications need, activated on one API process and provisioned by a worker.
  await licenseProfileApply({ request: (method, path, options) => request(inst.apis[0]!.url, method, path, options) }, out.api_key);
  return { id: out.organization_id, apiKey: out.api_key };
}

/** The connect popup: started on `startUrl`'s process, the provider's callback delivered to `callbackUrl`'s. */
async function connectAcross(startUrl: string, callbackUrl: string, organizationId: string, listingId: string, candidateId: string) {
  const jar = new CookieJar();
  const query = new URLSearchParams({ organization_id: organizationId, listing_id: listingId, origin: ORIGIN });
  const start = await browse(jar, `${startUrl}/v1/connect/profile?${query}`);
  assert.equal(start.status, 302, start.text.slice(0, 300));
  const consent = await browse(jar, start.location!);
  assert.equal(consent.status, 200, consent.text.slice(0, 300));
  const form = parseConsentForm(consent.text, startUrl);
  const button = [...form.buttons.values()].find((b) => b.value === candidateId);
  assert.ok(button, `a consent button for ${candidateId}`);
  const decided = await browse(jar, form.action, { method: 'POST', form: { ...form.hidden, [button.name]: button.value } });
  assert.equal(decided.status, 302, decided.text.slice(0, 300));
  const redirect = new URL(decided.location!);
  rememberSecret(redirect.searchParams.get('code'));
  assert.equal(redirect.pathname, '/v1/connect/profile/callback', 'the provider redirects to the callback at the public address');
  const callback = await browse(jar, `${callbackUrl}${redirect.pathname}${redirect.search}`);
  const result = popupResult(callback.text);
  assert.ok(result, `the callback page posts a result: ${callback.status} ${callback.text.slice(0, 300)}`);
  assert.equal(result.message.type, 'profile-apply:authorized', JSON.stringify(result.message));
  assert.equal(result.message.profile_user_id, candidateId);
  return result.message;
}

async function apply(url: string, apiKey: string, listingId: string, profileUserId: string): Promise<string> {
  const response = await request(url, 'POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
    auth: apiKey,
    body: { profile_user_id: profileUserId, cover_letter: 'Hello from the scale-out test', answers: {} },
  });
  assert.equal(response.status, 201, response.text);
  assert.equal(response.body.status, 'submitted');
  return response.body.application_id;
}

/** Sum of a counter over the given workers' /metrics. */
async function workerCount(inst: Installation, workers: Installation['workers'], name: string, labels: Record<string, string>): Promise<number[]> {
  return Promise.all(
    workers.map(async (w) => {
      const text = await (await fetch(w.metricsUrl, { headers: { authorization: `Bearer ${inst.operatorKey}` } })).text();
      let total = 0;
      for (const line of text.split('\n')) {
        if (!line.startsWith(`${name}{`)) continue;
        if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) total += Number(line.slice(line.lastIndexOf(' ') + 1));
      }
      return total;
    }),
  );
}

async function jobsOf(inst: Installation, queueName: string) {
  const queue = new Queue(queueName, { connection: { url: process.env.REDIS_URL! } as never, prefix: inst.prefix });
  try {
    const counts = await queue.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed');
    const completed = await queue.getJobs(['completed'], 0, -1);
    return { counts, completed };
  } finally {
    await queue.close();
  }
}

describe('scale-out: two API and two worker processes, as compose runs them', function () {
  this.timeout(180_000);
  let inst: Installation | undefined;

  const services = () => usingRedis() && Boolean(process.env.DATABASE_URL);
  before(async () => {
    if (services()) inst = await install();
  });
  beforeEach(function () {
    if (!services()) {
      skipBecause(this, 'needs DATABASE_URL and REDIS_URL, embedded mode');
    }
  });
  after(async () => {
    for (const p of [...(inst?.apis ?? []).map((a) => a.proc), ...(inst?.workers ?? []).map((w) => w.proc)]) await p.stop('SIGTERM');
    await killAll();
    await inst?.database.drop();
  });

  it('connect across processes, applications on both: every job ran exactly once, every record is there', async () => {
    const { apis, database } = inst!;
    const listings = new ListingsStore(database.db);
    const orgs = [await organization(inst!, 'Scale One'), await organization(inst!, 'Scale Two')];
    const listingIds = new Map<string, string[]>();
    for (const org of orgs) {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await listings.create({ organizationId: org.id, title: `Role ${i}`, questions: [] })).id);
      listingIds.set(org.id, ids);
    }

    // Connect: each flow starts on one process and its callback lands on the other.
    let flows = 0;
    for (const org of orgs) {
      for (const candidate of CANDIDATES) {
        const [from, to] = flows % 2 === 0 ? [apis[0]!, apis[1]!] : [apis[1]!, apis[0]!];
        await connectAcross(from.url, to.url, org.id, listingIds.get(org.id)![0]!, candidate.id);
        flows++;
      }
    }
    assert.equal(flows, 8);

    // Applications spread over both API processes, several at once.
    const submissions: Array<Promise<string>> = [];
    let n = 0;
    for (const org of orgs) {
      for (const listingId of listingIds.get(org.id)!) {
        for (const candidate of CANDIDATES) submissions.push(apply(apis[n++ % 2]!.url, org.apiKey, listingId, candidate.id));
      }
    }
    // License activations spread over both API processes too, at the same time. In production with no
    // e-signature or HRIS connection, those two wait in requires_connection (not provisioned, not billed).
    const ACTIONS = ['notifications.interview_reminder', 'esign.send_offer', 'hris.employee_sync'];
    const activations = orgs.flatMap((org, o) =>
      ACTIONS.map(async (action, a) => {
        const response = await request(apis[(o + a) % 2]!.url, 'POST', `/v1/integrations/licenses/${action}/activate`, { auth: org.apiKey });
        assert.equal(response.status, 202, response.text);
        return response.body.id as string;
      }),
    );
    const [applicationIds, licenseIds] = await Promise.all([Promise.all(submissions), Promise.all(activations)]);
    assert.equal(new Set(applicationIds).size, 24);
    assert.equal(new Set(licenseIds).size, 6);

    // Every record is there.
    const db = database.db;
    await waitFor(
      async () => Number((await db('hi_profile_applications').whereNotNull('delivered_at').count({ n: '*' }))[0]!.n) === 24 || undefined,
      'all 24 applications delivered',
      60_000,
    );
    assert.equal(Number((await db('host_pipeline_applications').count({ n: '*' }))[0]!.n), 24, 'the pipeline holds each application once');
    assert.deepEqual((await db('host_pipeline_applications').select('application_id')).map((r) => r.application_id).sort(), [...applicationIds].sort());
    assert.equal(Number((await db('hi_candidate_authorizations').count({ n: '*' }))[0]!.n), 8);
    await waitFor(
      async () => Number((await db('hi_profile_snapshots').count({ n: '*' }))[0]!.n) === 8 || undefined,
      'a snapshot per candidate and organization',
    );
    assert.equal(Number((await db('hi_outbox').whereNull('dispatched_at').count({ n: '*' }))[0]!.n), 0, 'the outbox is empty');

    // Every job ran exactly once: BullMQ's record, and the workers' own counts.
    const imports = await waitFor(async () => {
      const jobs = await jobsOf(inst!, 'profile-import');
      return jobs.counts.completed === 8 && jobs.counts.active === 0 && jobs.counts.waiting === 0 ? jobs : undefined;
    }, 'profile-import jobs finished');
    const deliveries = await waitFor(async () => {
      const jobs = await jobsOf(inst!, 'pipeline-delivery');
      return jobs.counts.completed === 24 && jobs.counts.active === 0 ? jobs : undefined;
    }, 'pipeline-delivery jobs finished');
    const provisionings = await waitFor(async () => {
      const jobs = await jobsOf(inst!, 'license-provisioning');
      return jobs.counts.completed === 6 && jobs.counts.active === 0 ? jobs : undefined;
    }, 'license-provisioning jobs finished');
    assert.equal(
      Number((await db('hi_licenses').where({ status: 'active' }).count({ n: '*' }))[0]!.n),
      6,
      'profile.accept_application, email reminders and e-signature (built in, it needs email only), per organization',
    );
    assert.equal(Number((await db('hi_licenses').where({ status: 'requires_connection' }).count({ n: '*' }))[0]!.n), 2, 'HRIS waits for its connection');
    assert.equal(Number((await db('hi_sandbox_provisionings').count({ n: '*' }))[0]!.n), 6, 'each provisioned once');
    for (const { counts, completed } of [imports, deliveries, provisionings]) {
      assert.equal(counts.failed, 0);
      assert.equal(counts.delayed, 0, 'no retry pending');
      assert.ok(
        completed.every((job) => job.attemptsMade === 1),
        'each job completed on its first and only attempt',
      );
    }
    assert.deepEqual(new Set(deliveries.completed.map((j) => j.data.application_id)), new Set(applicationIds));
    // (The reconciliation sweep's own scheduled runs are not part of this work.)
    const perQueue = await Promise.all(
      ['license-provisioning', 'profile-import', 'pipeline-delivery'].map((queue) =>
        workerCount(inst!, inst!.workers, 'hiring_integrations_jobs_processed_total', { outcome: 'completed', queue }),
      ),
    );
    const done = [0, 1].map((w) => perQueue.reduce((sum, counts) => sum + counts[w]!, 0));
    assert.equal(done[0]! + done[1]!, 38, `the two workers completed 6 license provisionings + 8 imports + 24 deliveries between them, once each (${done})`);
    assert.ok(
      done.every((d) => d > 0),
      `both workers took jobs (${done})`,
    );
    const notDone = await workerCount(inst!, inst!.workers, 'hiring_integrations_jobs_processed_total', { outcome: 'retry' });
    assert.deepEqual(notDone, [0, 0]);
  });

  it('a worker stopped with SIGTERM mid-work exits 0 and no job is lost', async () => {
    const { apis, workers, database } = inst!;
    const org = await organization(inst!, 'Drain');
    const listings = new ListingsStore(database.db);
    const listingIds: string[] = [];
    for (let i = 0; i < 30; i++) listingIds.push((await listings.create({ organizationId: org.id, title: `Shift ${i}`, questions: [] })).id);
    for (const [i, candidate] of CANDIDATES.entries()) await connectAcross(apis[i % 2]!.url, apis[(i + 1) % 2]!.url, org.id, listingIds[0]!, candidate.id);
    await waitFor(
      async () => Number((await database.db('hi_profile_snapshots').where({ organization_id: org.id }).count({ n: '*' }))[0]!.n) === 4 || undefined,
      'snapshots imported',
    );

    const before = await workerCount(inst!, workers, 'hiring_integrations_jobs_processed_total', { queue: 'pipeline-delivery', outcome: 'completed' });
    // 120 applications, submitted as fast as the two API processes take them.
    const submissions: Array<Promise<string>> = [];
    let n = 0;
    for (const listingId of listingIds) for (const candidate of CANDIDATES) submissions.push(apply(apis[n++ % 2]!.url, org.apiKey, listingId, candidate.id));
    const pending = Promise.all(submissions);

    // Stop worker 1 once it has taken some of them, while the rest are still coming.
    const [first] = workers;
    await waitFor(
      async () => {
        const [count] = await workerCount(inst!, [first!], 'hiring_integrations_jobs_processed_total', { queue: 'pipeline-delivery', outcome: 'completed' });
        return count! - before[0]! >= 3 || undefined;
      },
      'worker 1 has delivered some applications',
      60_000,
    );
    const deliveredAtSignal = Number(
      (await database.db('hi_profile_applications').where({ organization_id: org.id }).whereNotNull('delivered_at').count({ n: '*' }))[0]!.n,
    );
    const stopped = await first!.proc.stop('SIGTERM');
    assert.deepEqual(stopped, { code: 0, signal: null }, first!.proc.output().slice(-2000));

    const applicationIds = await pending;
    assert.equal(applicationIds.length, 120);
    assert.ok(deliveredAtSignal < 120, `work was outstanding when the signal came (${deliveredAtSignal}/120 delivered)`);
    await waitFor(
      async () =>
        Number((await database.db('hi_profile_applications').where({ organization_id: org.id }).whereNotNull('delivered_at').count({ n: '*' }))[0]!.n) ===
          120 || undefined,
      'all 120 applications delivered by the remaining worker',
      90_000,
    );
    const inPipeline = await database.db('host_pipeline_applications').where({ organization_id: org.id }).select('application_id');
    assert.deepEqual(inPipeline.map((r) => r.application_id).sort(), [...applicationIds].sort(), 'each application in the pipeline once');
    const deliveries = await jobsOf(inst!, 'pipeline-delivery');
    assert.equal(deliveries.counts.failed, 0);
    const mine = deliveries.completed.filter((job) => applicationIds.includes(job.data.application_id));
    assert.equal(mine.length, 120, 'every job completed');
    assert.ok(
      mine.every((job) => job.attemptsMade === 1),
      'none was interrupted and run again',
    );
  });
});
