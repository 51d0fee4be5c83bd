/**
 * The SMTP connector against a real SMTP server (smtp-server, in-process, STARTTLS with a
 * self-signed certificate the connection trusts through tls_ca): the connection test's
 * codes, what arrives (parsed back with mailparser), and how replies are classified.
 */
import { strict as assert } from 'node:assert';
import { smtpConnector } from '../../src/connectors/smtp';
import { SmtpNotificationConnector } from '../../src/connectors/smtp/smtp-client';
import type { SmtpSettings } from '../../src/connectors/smtp/settings';
import { DomainError } from '../../src/kernel/errors';
import { freePort } from '../helpers/processes';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';

describe('connector smtp: against a real SMTP server', function () {
  this.timeout(30_000);
  let smtp: TestSmtpServer;
  let settings: SmtpSettings;
  const credentials = { username: 'mailer', password: 's3cret-pass' };

  before(async () => {
    smtp = await startSmtpServer({ username: credentials.username, password: credentials.password });
    settings = smtpConnector.settings.parse({
      host: 'localhost',
      port: smtp.port,
      security: 'starttls',
      from_email: 'jobs@acme.example',
      from_name: 'Acme Hiring',
      tls_ca: smtp.certificate,
    });
  });
  after(() => smtp?.close());

  it('test(): EHLO, STARTTLS and AUTH succeed with the right credentials', async () => {
    const outcome = await smtpConnector.test(settings, credentials);
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
  });

  it('test(): a wrong password is connection_auth_failed, and the password is not in the message', async () => {
    const outcome = await smtpConnector.test(settings, { ...credentials, password: 'wrong-password-123' });
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.code, 'connection_auth_failed');
    assert.ok(!outcome.ok && !outcome.message.includes('wrong-password-123'));
  });

  it('test(): nothing listening is connection_unreachable; an untrusted certificate is connection_tls_failed', async () => {
    const closed = await freePort();
    const unreachable = await smtpConnector.test({ ...settings, port: closed }, credentials);
    assert.equal(!unreachable.ok && unreachable.code, 'connection_unreachable');
    const { tls_ca: _ca, ...untrusted } = settings;
    const tls = await smtpConnector.test(untrusted as SmtpSettings, credentials);
    assert.equal(!tls.ok && tls.code, 'connection_tls_failed', JSON.stringify(tls));
  });

  it('sends text + HTML with its language; the reference is the queue id the server answered', async () => {
    const connector = new SmtpNotificationConnector(settings, credentials);
    try {
      const delivery = await connector.sendEmail({
        organizationId: 'org_1',
        actionKey: 'notifications.interview_reminder',
        idempotencyKey: 'reminder-email-org_1-int_1-1',
        to: { name: 'Ada Lovelace', email: 'ada@example.com' },
        subject: 'Erinnerung: Vorstellungsgespräch',
        text: 'Hallo Ada',
        html: '<p>Hallo <b>Ada</b></p>',
        language: 'de',
      });
      const mail = smtp.received.at(-1)!;
      assert.equal(delivery.reference, mail.queueId);
      assert.equal(delivery.livemode, true);
      assert.deepEqual(mail.envelope.to, ['ada@example.com']);
      assert.equal(mail.parsed.subject, 'Erinnerung: Vorstellungsgespräch');
      assert.equal(mail.parsed.text?.trim(), 'Hallo Ada');
      assert.match(String(mail.parsed.html), /<b>Ada<\/b>/);
      assert.equal(mail.parsed.headers.get('content-language'), 'de');
      assert.equal(mail.parsed.from?.value[0]?.address, 'jobs@acme.example');
      assert.equal(mail.parsed.from?.value[0]?.name, 'Acme Hiring');
      // The same idempotency key gives the same Message-ID: a resend can be recognized.
      await connector.sendEmail({
        organizationId: 'org_1',
        actionKey: 'a.b',
        idempotencyKey: 'reminder-email-org_1-int_1-1',
        to: { name: 'A', email: 'ada@example.com' },
        subject: 's',
        text: 't',
      });
      assert.equal(smtp.received.at(-1)!.parsed.messageId, mail.parsed.messageId);
    } finally {
      connector.close();
    }
  });

  it('a 4xx reply is transient (upstream, retried); a 5xx reply is permanent with its code', async () => {
    const connector = new SmtpNotificationConnector(settings, credentials);
    const message = { organizationId: 'org_1', actionKey: 'a.b', idempotencyKey: 'k', to: { name: 'A', email: 'ada@example.com' }, subject: 's', text: 't' };
    try {
      smtp.failNext(1, 451, 'Local error in processing');
      await assert.rejects(connector.sendEmail(message), (e: DomainError) => e.kind === 'upstream' && e.code === 'counterpart_unavailable');
      smtp.failNext(1, 554, 'Transaction failed');
      await assert.rejects(connector.sendEmail(message), (e: DomainError) => e.kind === 'conflict' && e.code === 'message_rejected');
    } finally {
      connector.close();
    }
  });
});
