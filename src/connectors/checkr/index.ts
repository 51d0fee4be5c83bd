/** The `checkr` connector: a background-check vendor in Checkr's shape fills the background_checks port. */
import { urlDestination } from '../../features/connections/domain/connection-destinations';
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import { checkrCredentials, checkrSettings, type CheckrCredentials, type CheckrSettings } from './settings';
import { CheckrApi, CheckrBackgroundChecks } from './checkr-client';

export const checkrConnector: ConnectorDefinition<'background_checks', CheckrSettings, CheckrCredentials> = {
  key: 'checkr',
  kind: 'background_checks',
  description:
    'Background checks through Checkr (candidates, hosted consent invitations, reports, motor vehicle records, continuous checks; signed result webhooks)',
  settings: checkrSettings,
  credentials: checkrCredentials,
  async test(settings, credentials, network) {
    // A real round trip that orders nothing: read the account the key belongs to.
    const answer = await new CheckrApi(settings, credentials, network).call('GET', '/v1/account');
    if (!answer.ok) return { ok: false, code: answer.error.code, message: answer.error.message };
    if (answer.body.object !== 'account') return { ok: false, code: 'connection_protocol_error', message: 'Checkr answered /v1/account without an account' };
    if (answer.body.api_authorized === false)
      return { ok: false, code: 'connection_auth_failed', message: 'The Checkr account is not authorized for API access yet' };
    return { ok: true, detail: `Checkr account ${typeof answer.body.name === 'string' ? answer.body.name.slice(0, 100) : String(answer.body.id)} answered` };
  },
  destinations: (s) => [urlDestination('settings.api_base_url', s.api_base_url)],
  open: (settings, credentials, context) => new CheckrBackgroundChecks(settings, credentials, context?.network),
};
