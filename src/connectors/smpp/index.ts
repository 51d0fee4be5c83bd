/** The `smpp` connector: an SMSC speaking SMPP 3.4 (bind_transceiver, submit_sm, delivery receipts) fills the sms port. */
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import { smppCredentials, smppSettings, type SmppCredentials, type SmppSettings } from './settings';
import { receiptsTo, SmppSmsConnector } from './smpp-client';
import { SmppError } from './smpp-errors';
import { SmppSession } from './smpp-session';

export const smppConnector: ConnectorDefinition<'sms', SmppSettings, SmppCredentials> = {
  key: 'smpp',
  kind: 'sms',
  description: 'SMS through an SMSC over SMPP 3.4 (bind_transceiver, delivery receipts, STOP opt-outs, enquire_link keepalive)',
  settings: smppSettings,
  credentials: smppCredentials,
  async test(settings, credentials, network) {
    // Bind with the credentials, one enquire_link round trip, unbind: nothing is sent.
    const session = new SmppSession(settings, credentials, undefined, network);
    try {
      const pdu = await session.request('enquire_link', {});
      if (pdu.command_status !== 0) return { ok: false, code: 'connection_protocol_error', message: `enquire_link answered ${pdu.command_status}` };
      return { ok: true, detail: `${settings.host}:${settings.port} accepted the bind as ${credentials.system_id}` };
    } catch (error) {
      if (error instanceof SmppError) return { ok: false, code: error.classified.code, message: error.classified.message };
      return { ok: false, code: 'connection_protocol_error', message: String((error as Error)?.message ?? error).slice(0, 300) };
    } finally {
      session.close();
    }
  },
  destinations: (s) => [{ param: 'settings.host', host: s.host }],
  open: (settings, credentials, context) => new SmppSmsConnector(settings, credentials, context ? receiptsTo(context) : undefined, context?.network),
};
