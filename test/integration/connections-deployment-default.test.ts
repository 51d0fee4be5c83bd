/**
 * The operator's deployment default (SMTP_URL) against Debian's aiosmtpd: an organization
 * without a connection of its own sends through it. The server is down when the reminder
 * is due: the job retries with backoff, the run shows the failed attempts, and once the
 * server is up the message is delivered exactly once (read back from its Maildir).
 */
import { strict as assert } from 'node:assert';
import { startAiosmtpd, type Aiosmtpd } from '../helpers/aiosmtpd';
import { activateLicense } from '../helpers/hooks';
import { freePort } from '../helpers/processes';
import { waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';

describe('connections: the deployment default SMTP relay (Debian aiosmtpd)', function () {
  this.timeout(60_000);
  let t: TestHost;
  let server: Aiosmtpd | undefined;
  let port: number;
  let acme: { organizationId: string; apiKey: string };

  before(async () => {
    port = await freePort();
    t = await startTestHost({
      env: {
        RATE_LIMIT_PER_MINUTE: '0',
        REMINDER_LEAD_MINUTES: '0',
        SMTP_URL: `smtp://127.0.0.1:${port}?security=none`,
        SMTP_FROM: 'Hiring <jobs@ats.example>',
      },
    });
    acme = await t.createOrganization('Acme');
    await activateLicense(t, acme.apiKey, 'notifications.interview_reminder');
  });
  after(async () => {
    await t?.close();
    await server?.stop();
  });

  it('the relay is down when the reminder is due: retried, then delivered once when it is back', async () => {
    const fired = await t.request('POST', '/host/v1/hooks/interview.scheduled', {
      auth: t.operatorKey,
      body: {
        organization_id: acme.organizationId,
        payload: {
          interview_id: 'int_1',
          candidate: { name: 'Zoë Ångström', email: 'zoe@example.com' },
          starts_at: new Date(Date.now() + 300).toISOString(),
          title: 'Phone screen',
        },
      },
    });
    assert.equal(fired.status, 200, fired.text);
    // The first attempt finds nothing listening.
    const retrying = await waitFor(async () => {
      const runs = (await t.request('GET', '/v1/integrations/runs', { auth: acme.apiKey })).body.data;
      return runs[0]?.status === 'retrying' ? runs[0] : undefined;
    }, 'a retrying run');
    assert.equal(retrying.connector, 'smtp');
    assert.equal(retrying.connection_id, null, 'the deployment default, not a connection of the organization');
    assert.equal(retrying.attempts[0].error_code, 'connection_unreachable');
    server = await startAiosmtpd(port);
    const row = await waitFor(
      async () => {
        const r = await t.database.db('hi_interview_reminders').where({ organization_id: acme.organizationId, interview_id: 'int_1' }).first();
        return r?.status === 'sent' ? r : undefined;
      },
      'the reminder sent',
      40_000,
    );
    const messages = await server.messages();
    assert.equal(messages.length, 1);
    const [mail] = messages;
    assert.equal(mail!.to && !Array.isArray(mail!.to) ? mail!.to.value[0]!.address : undefined, 'zoe@example.com');
    assert.equal(mail!.from?.value[0]?.address, 'jobs@ats.example');
    assert.equal(mail!.from?.value[0]?.name, 'Hiring');
    assert.match(mail!.text ?? '', /Zoë Ångström/);
    const run = (await t.request('GET', `/v1/integrations/runs/${row.delivery_id}`, { auth: acme.apiKey })).body;
    assert.equal(run.status, 'succeeded');
    assert.ok(run.attempts.length >= 2);
    assert.equal(run.reference, mail!.messageId, 'aiosmtpd names no queue id: the Message-ID is the reference');
  });
});
