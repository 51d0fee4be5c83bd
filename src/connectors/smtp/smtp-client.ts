/**
 * Email over SMTP with nodemailer: STARTTLS or implicit TLS, AUTH, pooled connections,
 * text + HTML. A message counts as sent only when the server answered 250 for its DATA;
 * the reference is the server's queue id when it names one ("queued as …"), else the
 * Message-ID. The Message-ID derives from the idempotency key, so a message a retry sends
 * again (SMTP cannot tell us whether the first DATA was kept) carries the same id.
 * An organization's connection connects through the pinned network (nodemailer's
 * `getSocket`: the TCP connection is made, and its address checked, by the guard; TLS then
 * runs over it with the host name for SNI and the certificate check).
 */
import { createHash } from 'node:crypto';
import { createTransport, type Transporter } from 'nodemailer';
import type { Delivery, EmailMessage, NotificationConnector } from '../../features/hooks/domain/connectors';
import type { ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import type { SmtpCredentials, SmtpSettings } from './settings';
import { smtpFailure } from './smtp-errors';
import { sendInOneWrite } from './one-write-message';

const TIMEOUT_MS = 15_000;

export function smtpTransport(settings: SmtpSettings, credentials: SmtpCredentials, options: { pool?: boolean; network?: ConnectorNetwork } = {}): Transporter {
  const { network } = options;
  const auth = 'username' in credentials ? { user: credentials.username, pass: credentials.password } : undefined;
  const pool = options.pool ?? settings.pool;
  const dkim =
    settings.dkim_domain && settings.dkim_selector && credentials.dkim_private_key
      ? { dkim: { domainName: settings.dkim_domain, keySelector: settings.dkim_selector, privateKey: credentials.dkim_private_key } }
      : {};
  const base = {
    host: settings.host,
    port: settings.port,
    secure: settings.security === 'tls',
    requireTLS: settings.security === 'starttls',
    ignoreTLS: settings.security === 'none',
    ...(auth ? { auth } : {}),
    tls: { servername: settings.host, ...(settings.tls_ca ? { ca: settings.tls_ca } : {}) },
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
    ...dkim,
    ...(network
      ? {
          getSocket: (_options: unknown, callback: (error: Error | null, socket: object | false) => void) => {
            network.connect(settings.host, settings.port, TIMEOUT_MS).then(
              (connection) => callback(null, { connection }),
              (error: Error) => callback(error, false),
            );
          },
        }
      : {}),
  };
  return sendInOneWrite(pool ? createTransport({ ...base, pool: true, maxConnections: 5 }) : createTransport(base));
}

const queueId = (response: string | undefined) => /queued as\s+([A-Za-z0-9._-]+)/i.exec(response ?? '')?.[1];

export function messageIdFor(idempotencyKey: string, fromEmail: string): string {
  const domain = fromEmail.split('@')[1] ?? 'localhost';
  return `<${createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 32)}@${domain}>`;
}

export class SmtpNotificationConnector implements NotificationConnector {
  private readonly transport: Transporter;

  constructor(
    private readonly settings: SmtpSettings,
    credentials: SmtpCredentials,
    network?: ConnectorNetwork,
  ) {
    this.transport = smtpTransport(settings, credentials, network ? { network } : {});
  }

  async sendEmail(m: EmailMessage): Promise<Delivery> {
    const messageId = messageIdFor(m.idempotencyKey, this.settings.from_email);
    let info;
    try {
      info = await this.transport.sendMail({
        from: this.settings.from_name ? { name: this.settings.from_name, address: this.settings.from_email } : this.settings.from_email,
        to: { name: m.to.name, address: m.to.email },
        subject: m.subject,
        text: m.text,
        ...(m.html ? { html: m.html } : {}),
        ...(m.calendar ? { icalEvent: { method: m.calendar.method, filename: 'invite.ics', content: m.calendar.content } } : {}),
        messageId,
        ...(m.attachments?.length
          ? { attachments: m.attachments.map((a) => ({ filename: a.filename, content: Buffer.from(a.content), contentType: a.contentType })) }
          : {}),
        headers: { ...(m.language ? { 'Content-Language': m.language } : {}), ...(m.headers ?? {}) },
      });
    } catch (error) {
      throw smtpFailure(error);
    }
    // The server took the message for at least one recipient: that is its acknowledgment.
    if (!info.accepted?.length) throw smtpFailure({ code: 'EENVELOPE', message: 'no recipient was accepted' });
    const reference = queueId(info.response) ?? info.messageId;
    return { deliveryId: reference, reference, livemode: true };
  }

  close(): void {
    this.transport.close();
  }
}
