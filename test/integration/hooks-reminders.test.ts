/**
 * Interview reminders end to end (PostgreSQL + BullMQ in CI, PGlite + in-process jobs
 * embedded): the delayed job fires at the reminder time and the sandbox connector records
 * the message once; a rescheduled interview moves its job (the old one is gone, the new
 * one is due at the new time, and the reminder goes out then, not before); a canceled
 * interview removes it. REMINDER_LEAD_MINUTES=0 here: the reminder is due at the start.
 */
import { strict as assert } from 'node:assert';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { waitFor } from '../helpers/profile-flow';
import { usingRedis } from '../helpers/redis';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { activateLicense } from '../helpers/hooks';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('hooks: interview reminders on the queue', function () {
  this.timeout(60_000);
  let t: TestHost;
  let acme: { organizationId: string; apiKey: string };
  let queue: Queue | undefined;
  let connection: Redis | undefined;

  const fire = (hook: string, payload: object) =>
    t.request('POST', `/host/v1/hooks/${hook}`, { auth: t.operatorKey, body: { organization_id: acme.organizationId, payload } });
  const deliveries = (channel: 'email' | 'sms') => t.database.db('hi_connector_deliveries').where({ organization_id: acme.organizationId, connector: channel });
  const interview = (id: string, startsAt: Date) => ({
    interview_id: id,
    candidate: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+14155550123' },
    starts_at: startsAt.toISOString(),
    title: 'Onsite interview',
  });

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', REMINDER_LEAD_MINUTES: '0' } });
    acme = await t.createOrganization('Acme');
    await activateLicense(t, acme.apiKey, 'notifications.interview_reminder');
    await activateLicense(t, acme.apiKey, 'sms.interview_reminder');
    if (usingRedis()) {
      connection = new Redis(t.config.redisUrl!, { maxRetriesPerRequest: null });
      queue = new Queue('interview-reminders', { connection, prefix: t.config.queuePrefix });
    }
  });
  after(async () => {
    await queue?.close();
    connection?.disconnect();
    await t?.close();
  });

  it('sends the reminder when it is due, once, and says so on the hook bus', async () => {
    const startsAt = new Date(Date.now() + 1500);
    const response = await fire('interview.scheduled', interview('int_1', startsAt));
    assert.deepEqual(response.body.handled, ['interview-reminder', 'sms-interview-reminder']);
    assert.equal((await deliveries('email').where('idempotency_key', 'like', '%int_1%')).length, 0, 'not before it is due');
    const rows = await waitFor(
      async () => {
        const found = await deliveries('email').where('idempotency_key', 'like', '%int_1%');
        return found.length > 0 ? found : undefined;
      },
      'the email reminder',
      10_000,
    );
    assert.ok(Date.now() >= startsAt.getTime() - 50);
    const request = typeof rows[0].request === 'string' ? JSON.parse(rows[0].request) : rows[0].request;
    assert.equal(request.to.email, 'ada@example.com');
    assert.match(request.text, /Onsite interview/);
    await waitFor(
      async () => ((await deliveries('sms').where('idempotency_key', 'like', '%int_1%')).length > 0 ? true : undefined),
      'the SMS reminder',
      10_000,
    );
    await waitFor(
      async () => (t.host.hooks.recent.some((e) => e.hook === 'interview.reminder_sent' && (e.payload as any).interview_id === 'int_1') ? true : undefined),
      'interview.reminder_sent',
    );
    await sleep(300);
    assert.equal((await deliveries('email').where('idempotency_key', 'like', '%int_1%')).length, 1);
    const row = await t.database.db('hi_interview_reminders').where({ organization_id: acme.organizationId, interview_id: 'int_1', channel: 'email' }).first();
    assert.equal(row.status, 'sent');
  });

  /** The reminder's job left the outbox for the queue (the hook's write and the queue add are apart). */
  const relayed = (jobId: string) =>
    waitFor(
      async () => (await t.database.db('hi_outbox').where({ job_id: jobId }).whereNotNull('dispatched_at').first()) ?? undefined,
      `${jobId} on the queue`,
    );

  it('a rescheduled interview moves its reminder job: the old one is gone, the new one is due at the new time', async () => {
    const first = new Date(Date.now() + 1500);
    const scheduled = await fire('interview.scheduled', interview('int_2', first));
    const oldJob = scheduled.body.outcomes.find((o: any) => o.handler === 'interview-reminder').result.job_id;
    await relayed(oldJob);
    const moved = new Date(Date.now() + 4000);
    const response = await fire('interview.rescheduled', { interview_id: 'int_2', starts_at: moved.toISOString() });
    assert.deepEqual(response.body.handled, ['interview-reminder-reschedule', 'sms-interview-reminder-reschedule']);
    const outcome = response.body.outcomes[0];
    assert.equal(outcome.result.moved_from, oldJob);
    const newJob = outcome.result.job_id;
    assert.notEqual(newJob, oldJob);
    assert.equal(outcome.result.remind_at, moved.toISOString());
    await relayed(newJob);
    if (queue) {
      assert.equal(await queue.getJob(oldJob), undefined, 'the old job was removed from BullMQ');
      const job = (await queue.getJob(newJob))!;
      assert.equal(await job.getState(), 'delayed');
      assert.ok(
        Math.abs(job.timestamp + job.delay - moved.getTime()) < 250,
        `due at ${new Date(job.timestamp + job.delay).toISOString()}, expected ${moved.toISOString()}`,
      );
    }
    // Past the original time: nothing was sent.
    await sleep(first.getTime() - Date.now() + 800);
    assert.equal((await deliveries('email').where('idempotency_key', 'like', '%int_2%')).length, 0, 'nothing at the old time');
    const rows = await waitFor(
      async () => {
        const found = await deliveries('email').where('idempotency_key', 'like', '%int_2%');
        return found.length > 0 ? found : undefined;
      },
      'the moved reminder',
      10_000,
    );
    assert.ok(Date.now() >= moved.getTime() - 50, 'sent at the new time');
    assert.equal(rows.length, 1);
    assert.equal(rows[0].idempotency_key, newJob);
  });

  it('a canceled interview removes its pending reminders; nothing is sent', async () => {
    const startsAt = new Date(Date.now() + 1500);
    const scheduled = await fire('interview.scheduled', interview('int_3', startsAt));
    const jobId = scheduled.body.outcomes[0].result.job_id;
    await relayed(jobId);
    const canceled = await fire('interview.canceled', { interview_id: 'int_3' });
    assert.deepEqual(canceled.body.handled, ['interview-reminder-cancel', 'sms-interview-reminder-cancel']);
    assert.equal(canceled.body.outcomes[0].result.removed, true);
    if (queue) assert.equal(await queue.getJob(jobId), undefined);
    await sleep(startsAt.getTime() - Date.now() + 1000);
    assert.equal((await deliveries('email').where('idempotency_key', 'like', '%int_3%')).length, 0);
    assert.equal((await deliveries('sms').where('idempotency_key', 'like', '%int_3%')).length, 0);
  });

  it('rescheduling an interview that has no reminder is a skip with its reason', async () => {
    const response = await fire('interview.rescheduled', { interview_id: 'int_none', starts_at: new Date(Date.now() + 60_000).toISOString() });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.handled, []);
    assert.match(response.body.outcomes[0].reason, /^no_reminder: /);
  });
});
