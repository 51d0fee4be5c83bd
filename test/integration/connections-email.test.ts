/**
 * Connections and action runs end to end, through the API and the reminder jobs, against
 * a real SMTP server (smtp-server, STARTTLS, AUTH): credentials never come back; a wrong
 * password fails the connection test with its code and the organization's reminders fail
 * (its own unverified connection is never bypassed); rotated credentials verify and the
 * reminder arrives, acknowledged by the server's queue id; a server answering 451 is
 * retried and the message delivered once; another organization's connection or run is 404.
 */
import { strict as assert } from 'node:assert';
import { activateLicense } from '../helpers/hooks';
import { rememberSecret, testLogger } from '../helpers/log-capture';
import { waitFor } from '../helpers/profile-flow';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { usingRedis } from '../helpers/redis';
import { skipBecause } from '../helpers/skip';
import { queueDefinitions } from '../../src/composition/infrastructure';
import { loadManifest } from '../../src/platform/manifest/manifest';
import { BullmqJobQueue } from '../../src/platform/queue/bullmq-queue';
import { closeRedis, createRedis } from '../../src/platform/queue/redis';
import { ReconciliationSweep } from '../../src/features/operations/domain/reconciliation-sweep';
import { StuckRunReconciler } from '../../src/features/action-runs/domain/stuck-run-reconciler';
import { KnexActionRunRepository } from '../../src/features/action-runs/storage/knex-action-run-repository';
import { ReminderRunReplayer } from '../../src/features/reminders/domain/reminder-run-replayer';
import { KnexInterviewReminderRepository } from '../../src/features/reminders/storage/interview-reminder-repository';
import { systemClock } from '../../src/kernel/clock';
import { parseCatalogDocument } from '../../src/features/licensing/domain/catalog-document';
import { syncCatalog } from '../../src/features/licensing/storage/catalog-sync';

const PASSWORD = 'correct-horse-battery-staple';
const WRONG = 'wrong-horse-battery-staple';

describe('connections: email reminders over a real SMTP server', function () {
  this.timeout(60_000);
  let t: TestHost;
  let smtp: TestSmtpServer;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  let connectionId: string;

  const fire = (organizationId: string, id: string, email: string) =>
    t.request('POST', '/host/v1/hooks/interview.scheduled', {
      auth: t.operatorKey,
      body: {
        organization_id: organizationId,
        payload: {
          interview_id: id,
          candidate: { name: 'Ada Lovelace', email },
          starts_at: new Date(Date.now() + 800).toISOString(),
          title: 'Onsite interview',
        },
      },
    });
  const reminder = (organizationId: string, interviewId: string) =>
    t.database.db('hi_interview_reminders').where({ organization_id: organizationId, interview_id: interviewId, channel: 'email' }).first();
  const settledReminder = (organizationId: string, interviewId: string) =>
    waitFor(async () => {
      const row = await reminder(organizationId, interviewId);
      return row && row.status !== 'scheduled' ? row : undefined;
    }, `the reminder of ${interviewId} to settle`);
  const UNRUNNABLE = 'assessments.send_test';
  const availability = async (apiKey: string, action: string) => {
    const catalog = await t.request('GET', '/v1/integrations/catalog', { auth: apiKey });
    return catalog.body.groups.flatMap((g: { actions: any[] }) => g.actions).find((a: { key: string }) => a.key === action).availability;
  };
  const runs = (apiKey: string, query = '') => t.request('GET', `/v1/integrations/runs${query}`, { auth: apiKey });

  before(async () => {
    rememberSecret(PASSWORD);
    rememberSecret(WRONG);
    smtp = await startSmtpServer({ username: 'acme-mailer', password: PASSWORD });
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', REMINDER_LEAD_MINUTES: '0' } });
    acme = await t.createOrganization('Acme');
    globex = await t.createOrganization('Globex');
    await activateLicense(t, acme.apiKey, 'notifications.interview_reminder');
    // An action the catalog lists and no code of this build performs (every built-in catalog action may become runnable).
    const document = parseCatalogDocument({
      version: 2,
      currency: 'USD',
      platform_fee: { amount: 4900, currency: 'USD' },
      groups: [
        {
          key: 'assessments',
          name: 'Assessments',
          description: 'Skills tests.',
          actions: [{ key: UNRUNNABLE, name: 'Send a test', description: 'Send a skills test.', price: { amount: 1500, currency: 'USD' } }],
        },
      ],
      packages: [],
    });
    await syncCatalog(t.database.db, document, { source: 'test', at: new Date() });
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('creates an SMTP connection: 201, untested, the credentials never shown and stored only encrypted', async () => {
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'smtp',
        settings: {
          host: 'localhost',
          port: smtp.port,
          security: 'starttls',
          from_email: 'jobs@acme.example',
          from_name: 'Acme Hiring',
          tls_ca: smtp.certificate,
        },
        credentials: { username: 'acme-mailer', password: WRONG },
      },
    });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.id, /^conn_/);
    assert.equal(created.body.status, 'untested');
    assert.equal(created.body.kind, 'email');
    assert.ok(!created.text.includes(WRONG) && !('credentials' in created.body));
    connectionId = created.body.id;
    const row = await t.database.db('hi_connections').where({ id: connectionId }).first();
    assert.ok(!JSON.stringify(row).includes(WRONG), 'the password is not stored in clear');
    const listed = await t.request('GET', '/v1/integrations/connections', { auth: acme.apiKey });
    assert.deepEqual(
      listed.body.data.map((c: { id: string }) => c.id),
      [connectionId],
    );
    assert.ok(!listed.text.includes(WRONG));
    const again = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: { connector: 'smtp', settings: { host: 'localhost', port: 25, from_email: 'a@b.example' }, credentials: {} },
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'connection_exists');
  });

  it('bad settings are a 400 naming the field; an unknown connector is a 400', async () => {
    const bad = await t.request('POST', '/v1/integrations/connections', {
      auth: globex.apiKey,
      body: { connector: 'smtp', settings: { host: 'localhost', port: 70_000, from_email: 'x@y.example' }, credentials: {} },
    });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.body.error.param, /port/);
    assert.equal(bad.body.error.code, 'parameter_invalid');
    const unknown = await t.request('POST', '/v1/integrations/connections', {
      auth: globex.apiKey,
      body: { connector: 'carrier_pigeon', settings: {}, credentials: {} },
    });
    assert.equal(unknown.status, 400, unknown.text);
  });

  it("settings pointing into the deployment's own network are 400 destination_not_allowed, naming the field; nothing is stored", async () => {
    const attempts = [
      { connector: 'smtp', settings: { host: '169.254.169.254', port: 25, from_email: 'x@y.example' }, param: 'settings.host' },
      { connector: 'smtp', settings: { host: '127.0.0.2', port: 6379, from_email: 'x@y.example' }, param: 'settings.host' },
      {
        connector: 'caldav',
        settings: { server_url: 'http://[::ffff:10.0.0.1]:5232/' },
        credentials: { username: 'u', password: 'p' },
        param: 'settings.server_url',
      },
    ];
    for (const { connector, settings, credentials = {}, param } of attempts) {
      const refused = await t.request('POST', '/v1/integrations/connections', { auth: globex.apiKey, body: { connector, settings, credentials } });
      assert.equal(refused.status, 400, refused.text);
      assert.deepEqual([refused.body.error.code, refused.body.error.param], ['destination_not_allowed', param]);
    }
    assert.equal((await t.database.db('hi_connections').where({ organization_id: globex.organizationId })).length, 0);
  });

  it('a wrong password: the test answers connection_auth_failed and the reminder fails (connection_missing), never sent', async () => {
    const tested = await t.request('POST', `/v1/integrations/connections/${connectionId}/test`, { auth: acme.apiKey });
    assert.equal(tested.status, 200, tested.text);
    assert.equal(tested.body.ok, false);
    assert.equal(tested.body.code, 'connection_auth_failed');
    assert.equal(tested.body.connection.status, 'failed');
    assert.ok(!tested.text.includes(WRONG));
    assert.equal((await fire(acme.organizationId, 'int_wrong', 'ada@example.com')).status, 200);
    const row = await settledReminder(acme.organizationId, 'int_wrong');
    assert.equal(row.status, 'failed');
    assert.equal(row.reason, 'connection_missing');
    assert.equal(smtp.received.length, 0);
    const failed = await runs(acme.apiKey, '?status=failed');
    assert.equal(failed.body.data.length, 1, failed.text);
    assert.equal(failed.body.data[0].error.code, 'connection_missing');
    // The catalog says so, naming what is missing; an action this build has no handler for is not available.
    assert.deepEqual(await availability(acme.apiKey, 'notifications.interview_reminder'), {
      status: 'requires_connection',
      missing: ['email'],
      purchasable: true,
      reason: 'connection_missing',
    });
    assert.deepEqual(await availability(acme.apiKey, UNRUNNABLE), {
      status: 'not_available',
      missing: [],
      purchasable: false,
      reason: 'no_handler',
    });
    // The runs API filters on the hook whose handler performed the step.
    const byHook = await runs(acme.apiKey, '?hook=interview.scheduled');
    assert.deepEqual(
      byHook.body.data.map((r: { id: string }) => r.id),
      [failed.body.data[0].id],
    );
    assert.equal(byHook.body.data[0].hook, 'interview.scheduled');
    assert.equal((await runs(acme.apiKey, '?hook=interview.canceled')).body.data.length, 0);
  });

  it('no selling air: an action (or a package holding one) this build cannot run is refused 409, quotes too', async () => {
    const action = await t.request('POST', `/v1/integrations/licenses/${UNRUNNABLE}/activate`, { auth: globex.apiKey });
    assert.equal(action.status, 409, action.text);
    assert.equal(action.body.error.code, 'action_not_available');
    // Every vertical package runs now (restaurants since shift scheduling): an operator's package holding an unrunnable action is refused.
    const made = await t.request('POST', '/v1/integrations/packages', {
      auth: t.operatorKey,
      body: { slug: 'sign-and-pay', name: 'Sign and pay', price: { amount: 4500, currency: 'USD' }, actions: ['payouts.instant_pay', UNRUNNABLE] },
    });
    assert.equal(made.status, 201, made.text);
    const pkg = await t.request('POST', '/v1/integrations/packages/sign-and-pay/subscribe', { auth: globex.apiKey });
    assert.equal(pkg.status, 409, pkg.text);
    assert.equal(pkg.body.error.code, 'package_not_available');
    assert.deepEqual([...pkg.body.error.actions].sort(), [UNRUNNABLE], pkg.text);
    const quote = await t.request('GET', `/v1/billing/quote?activate=${UNRUNNABLE}`, { auth: globex.apiKey });
    assert.equal(quote.status, 409, quote.text);
    assert.equal(quote.body.error.code, 'action_not_available');
    // An unknown action is still a 404, and nothing was bought.
    assert.equal((await t.request('POST', '/v1/integrations/licenses/nothing.at_all/activate', { auth: globex.apiKey })).status, 404);
    const licenses = await t.request('GET', '/v1/integrations/licenses', { auth: globex.apiKey });
    assert.equal(licenses.body.data.length, 0, licenses.text);
  });

  it('a license bought while its connection fails waits in requires_connection, unbilled; verifying the connection activates it', async () => {
    const initech = await t.createOrganization('Initech');
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: initech.apiKey,
      body: {
        connector: 'smtp',
        settings: { host: 'localhost', port: smtp.port, security: 'starttls', from_email: 'jobs@initech.example', tls_ca: smtp.certificate },
        credentials: { username: 'acme-mailer', password: WRONG },
      },
    });
    assert.equal(created.status, 201, created.text);
    const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: initech.apiKey });
    assert.equal(tested.body.code, 'connection_auth_failed');
    const bought = await t.request('POST', '/v1/integrations/licenses/notifications.interview_reminder/activate', { auth: initech.apiKey });
    assert.equal(bought.status, 202, bought.text);
    assert.equal(bought.body.status, 'requires_connection');
    assert.deepEqual(bought.body.missing_connections, ['email']);
    const actionLines = async () =>
      (await t.request('GET', '/v1/billing/invoices/upcoming', { auth: initech.apiKey })).body.lines.filter(
        (l: { key: string | null; amount: number }) => l.key === 'notifications.interview_reminder' && l.amount > 0,
      );
    assert.deepEqual(await actionLines(), [], 'not charged before it can run');
    // Buying it again answers the waiting license; the hook is not run for it.
    const again = await t.request('POST', '/v1/integrations/licenses/notifications.interview_reminder/activate', { auth: initech.apiKey });
    assert.equal(again.body.id, bought.body.id);
    const waiting = await t.request('GET', '/v1/integrations/licenses?status=requires_connection', { auth: initech.apiKey });
    assert.deepEqual(
      waiting.body.data.map((l: { id: string }) => l.id),
      [bought.body.id],
    );
    await t.request('PATCH', `/v1/integrations/connections/${created.body.id}`, {
      auth: initech.apiKey,
      body: { credentials: { username: 'acme-mailer', password: PASSWORD } },
    });
    const fixed = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: initech.apiKey });
    assert.equal(fixed.body.ok, true, fixed.text);
    const active = await waitFor(async () => {
      const license = (await t.request('GET', '/v1/integrations/licenses', { auth: initech.apiKey })).body.data[0];
      return license?.status === 'active' ? license : undefined;
    }, 'the license to become active');
    assert.deepEqual(active.missing_connections, []);
    await waitFor(
      async () => t.host.hooks.recent.find((e) => e.hook === 'license.activated' && (e.payload as any).license_id === bought.body.id),
      'license.activated',
    );
    const lines = await waitFor(async () => {
      const found = await actionLines();
      return found.length > 0 ? found : undefined;
    }, 'billing from activation');
    // Charged from the activation: the remaining time of the period, then the next period in advance.
    const proration = lines.find((l: { proration: boolean }) => l.proration);
    assert.ok(proration && proration.amount < 900, JSON.stringify(lines));
  });

  it('rotated credentials verify; the reminder arrives once, and its run holds the queue id the server answered', async () => {
    // Settings are validated by the connector's schema on update too; a refused update changes nothing.
    const refused = await t.request('PATCH', `/v1/integrations/connections/${connectionId}`, { auth: acme.apiKey, body: { settings: { host: 'localhost' } } });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error.code, 'parameter_missing');
    assert.equal(refused.body.error.param, 'settings.port');
    const patched = await t.request('PATCH', `/v1/integrations/connections/${connectionId}`, {
      auth: acme.apiKey,
      body: { credentials: { username: 'acme-mailer', password: PASSWORD } },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.status, 'untested');
    const tested = await t.request('POST', `/v1/integrations/connections/${connectionId}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
    assert.equal(tested.body.connection.status, 'verified');
    assert.deepEqual(await availability(acme.apiKey, 'notifications.interview_reminder'), {
      status: 'available',
      missing: [],
      purchasable: true,
      reason: null,
    });
    await fire(acme.organizationId, 'int_ok', 'ada@example.com');
    const row = await settledReminder(acme.organizationId, 'int_ok');
    assert.equal(row.status, 'sent');
    assert.equal(smtp.received.length, 1);
    const mail = smtp.received[0]!;
    assert.deepEqual(mail.envelope.to, ['ada@example.com']);
    assert.match(mail.parsed.text ?? '', /Onsite interview/);
    const succeeded = (await runs(acme.apiKey, '?status=succeeded&action=notifications.interview_reminder')).body.data;
    assert.equal(succeeded.length, 1);
    assert.equal(succeeded[0].reference, mail.queueId);
    assert.equal(succeeded[0].livemode, true);
    assert.equal(succeeded[0].connector, 'smtp');
    assert.equal(succeeded[0].connection_id, connectionId);
    assert.equal(row.delivery_id, succeeded[0].id);
    const one = await t.request('GET', `/v1/integrations/runs/${succeeded[0].id}`, { auth: acme.apiKey });
    assert.equal(one.status, 200);
    assert.equal(one.body.attempts.length, 1);
    assert.equal(one.body.attempts[0].outcome, 'succeeded');
    await waitFor(
      async () => t.host.hooks.recent.find((e) => e.hook === 'interview.reminder_sent' && (e.payload as any).interview_id === 'int_ok'),
      'interview.reminder_sent',
    );
    await waitFor(
      async () => t.host.hooks.recent.find((e) => e.hook === 'action_run.succeeded' && (e.payload as any).run_id === succeeded[0].id),
      'action_run.succeeded',
    );
  });

  it('the failed run is retried once the connection is fixed: one more attempt on the same run, delivered once; a succeeded run is 409', async () => {
    const [failed] = (await runs(acme.apiKey, '?status=failed')).body.data;
    assert.equal(failed.error.code, 'connection_missing');
    const before = smtp.received.length;
    const retried = await t.request('POST', `/v1/integrations/runs/${failed.id}/retry`, { auth: acme.apiKey });
    assert.equal(retried.status, 202, retried.text);
    assert.equal(retried.body.id, failed.id);
    const again = await t.request('POST', `/v1/integrations/runs/${failed.id}/retry`, { auth: acme.apiKey });
    assert.ok([202, 409].includes(again.status), again.text);
    const row = await waitFor(async () => {
      const r = await reminder(acme.organizationId, 'int_wrong');
      return r?.status === 'sent' ? r : undefined;
    }, 'the retried reminder to be sent');
    assert.equal(row.delivery_id, failed.id);
    assert.equal(smtp.received.length, before + 1, 'delivered once');
    const run = (await t.request('GET', `/v1/integrations/runs/${failed.id}`, { auth: acme.apiKey })).body;
    assert.equal(run.status, 'succeeded');
    assert.equal(run.connector, 'smtp');
    assert.deepEqual(
      run.attempts.map((a: { outcome: string }) => a.outcome),
      ['permanent_error', 'succeeded'],
    );
    const done = await t.request('POST', `/v1/integrations/runs/${failed.id}/retry`, { auth: acme.apiKey });
    assert.equal(done.status, 409);
    assert.equal(done.body.error.code, 'run_succeeded');
    assert.equal((await t.request('POST', `/v1/integrations/runs/${failed.id}/retry`, { auth: globex.apiKey })).status, 404);
  });

  it('a server answering 451 is retried with backoff, then the message is delivered once', async () => {
    smtp.failNext(2, 451, 'Greylisted, try again');
    const before = smtp.received.length;
    await fire(acme.organizationId, 'int_retry', 'grace@example.com');
    const row = await settledReminder(acme.organizationId, 'int_retry');
    assert.equal(row.status, 'sent');
    assert.equal(smtp.received.length, before + 1);
    const run = (await t.request('GET', `/v1/integrations/runs/${row.delivery_id}`, { auth: acme.apiKey })).body;
    assert.equal(run.status, 'succeeded');
    assert.deepEqual(
      run.attempts.map((a: { outcome: string }) => a.outcome),
      ['transient_error', 'transient_error', 'succeeded'],
    );
    assert.equal(run.attempts[0].error_code, 'counterpart_unavailable');
  });

  it('a retrying run whose job the queue lost (its Redis keys flushed) is found by the run sweep, re-enqueued once, and delivered once', async function () {
    if (!usingRedis()) return skipBecause(this, 'the in-process queue has no store to lose');
    smtp.failNext(2, 451, 'Greylisted, try again');
    const before = smtp.received.length;
    await fire(acme.organizationId, 'int_lost', 'katherine@example.com');
    // After the second failure the job waits ~2 s in BullMQ's delayed set: lose it there.
    const stuck = await waitFor(async () => {
      const [run] = (await runs(acme.apiKey, '?status=retrying')).body.data;
      return run?.attempts.length === 2 && run.attempts[1].outcome === 'transient_error' ? run : undefined;
    }, 'two failed attempts');
    const client = createRedis(process.env.REDIS_URL!, 'client');
    const queue = new BullmqJobQueue({
      connection: client,
      workerConnection: () => createRedis(process.env.REDIS_URL!, 'worker'),
      prefix: t.config.queuePrefix,
      definitions: queueDefinitions(loadManifest()),
      logger: testLogger(),
    });
    try {
      const keys = await client.keys(`${t.config.queuePrefix}:interview-reminders:*`);
      if (keys.length > 0) await client.del(...keys);
      assert.equal((await reminder(acme.organizationId, 'int_lost')).status, 'scheduled', 'the reminder still waits for its lost job');
      const db = t.database.db;
      const sweep = new ReconciliationSweep(
        [new StuckRunReconciler(new KnexActionRunRepository(db), () => [new ReminderRunReplayer(new KnexInterviewReminderRepository(db), queue, systemClock)])],
        queue,
        testLogger(),
        { boundMs: 0, batchSize: 100 },
      );
      // Two sweeps at once (two workers) find it; its job id lets one job exist, so it is sent once.
      const reports = await Promise.all([sweep.run(new Date(Date.now() + 1000)), sweep.run(new Date(Date.now() + 1000))]);
      for (const report of reports) assert.deepEqual([report.action_runs!.found, report.action_runs!.error ?? 0], [1, 0], JSON.stringify(reports));
      const row = await settledReminder(acme.organizationId, 'int_lost');
      assert.equal(row.status, 'sent');
      assert.equal(row.delivery_id, stuck.id);
      assert.equal(smtp.received.length, before + 1, 'delivered once');
      const run = (await t.request('GET', `/v1/integrations/runs/${stuck.id}`, { auth: acme.apiKey })).body;
      assert.deepEqual(
        run.attempts.map((a: { outcome: string }) => a.outcome),
        ['transient_error', 'transient_error', 'succeeded'],
      );
      // Nothing left to sweep.
      assert.equal((await sweep.run(new Date(Date.now() + 1000))).action_runs!.found, 0);
    } finally {
      await queue.close();
      await closeRedis(client);
    }
  });

  it("another organization's connection and run answer 404", async () => {
    const run = (await runs(acme.apiKey)).body.data[0];
    for (const path of [`/v1/integrations/connections/${connectionId}`, `/v1/integrations/runs/${run.id}`]) {
      const response = await t.request('GET', path, { auth: globex.apiKey });
      assert.equal(response.status, 404, path);
    }
    assert.equal((await t.request('POST', `/v1/integrations/connections/${connectionId}/test`, { auth: globex.apiKey })).status, 404);
    assert.equal((await t.request('DELETE', `/v1/integrations/connections/${connectionId}`, { auth: globex.apiKey })).status, 404);
    assert.equal((await runs(globex.apiKey)).body.data.length, 0);
  });

  it('an organization without a connection, in test mode, gets the sandbox: the run says livemode false', async () => {
    await activateLicense(t, globex.apiKey, 'notifications.interview_reminder');
    await fire(globex.organizationId, 'int_sandbox', 'ada@example.com');
    const row = await settledReminder(globex.organizationId, 'int_sandbox');
    assert.equal(row.status, 'sent');
    const [run] = (await runs(globex.apiKey)).body.data;
    assert.equal(run.connector, 'sandbox');
    assert.equal(run.livemode, false);
  });
});
