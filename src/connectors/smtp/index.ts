/** The `smtp` connector: any SMTP submission server or relay fills the email port. */
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import { smtpCredentials, smtpSettings, type SmtpCredentials, type SmtpSettings } from './settings';
import { SmtpNotificationConnector, smtpTransport } from './smtp-client';
import { classifySmtpError } from './smtp-errors';
import { dkimProblem } from './dkim';

export const smtpConnector: ConnectorDefinition<'email', SmtpSettings, SmtpCredentials> = {
  key: 'smtp',
  kind: 'email',
  description: 'Email through your SMTP server or relay (STARTTLS or TLS, AUTH, pooled connections)',
  settings: smtpSettings,
  credentials: smtpCredentials,
  async test(settings, credentials, network) {
    const dkim = dkimProblem(settings, credentials);
    if (dkim) return { ok: false, ...dkim };
    // verify(): connect, EHLO, STARTTLS when asked, AUTH when credentials are given; no message.
    const transport = smtpTransport(settings, credentials, { pool: false, ...(network ? { network } : {}) });
    try {
      await transport.verify();
      return { ok: true, detail: `${settings.host}:${settings.port} accepted the connection${'username' in credentials ? ' and the credentials' : ''}` };
    } catch (error) {
      const { code, message } = classifySmtpError(error);
      return { ok: false, code, message };
    } finally {
      transport.close();
    }
  },
  destinations: (s) => [{ param: 'settings.host', host: s.host }],
  open: (settings, credentials, context) => new SmtpNotificationConnector(settings, credentials, context?.network),
};
