/** The `twilio` connector: Twilio Programmable Messaging (or a Twilio-compatible Messages API) fills the sms port. */
import { urlDestination } from '../../features/connections/domain/connection-destinations';
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import { twilioCredentials, twilioSettings, type TwilioCredentials, type TwilioSettings } from './settings';
import { TwilioApi, TwilioSmsConnector } from './twilio-client';

export const twilioConnector: ConnectorDefinition<'sms', TwilioSettings, TwilioCredentials> = {
  key: 'twilio',
  kind: 'sms',
  description: 'SMS through Twilio Programmable Messaging (Account SID + Auth Token; delivery status callbacks, STOP opt-outs)',
  settings: twilioSettings,
  credentials: twilioCredentials,
  async test(settings, credentials, network) {
    // A real round trip that sends nothing: fetch the account with these credentials.
    const answer = await new TwilioApi(settings, credentials, network).fetchAccount();
    if (!answer.ok) return { ok: false, code: answer.error.code, message: answer.error.message };
    const status = answer.body.status;
    if (typeof status === 'string' && status !== 'active')
      return { ok: false, code: 'connection_auth_failed', message: `The Twilio account is ${status}, not active` };
    return { ok: true, detail: `Twilio account ${settings.account_sid} answered${typeof status === 'string' ? ` (${status})` : ''}` };
  },
  destinations: (s) => [urlDestination('settings.api_base_url', s.api_base_url)],
  open: (settings, credentials, context) => new TwilioSmsConnector(settings, credentials, context),
};
