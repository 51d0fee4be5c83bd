/** The `scim` connector: any SCIM 2.0 HR directory (Workday, BambooHR bridges, Okta/Entra as HR source, …) fills the HRIS port. */
import { urlDestination } from '../../features/connections/domain/connection-destinations';
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import { isDomainError } from '../../kernel/errors';
import { ScimHrisConnector } from './scim-hris-connector';
import { scimRequest } from './scim-http';
import { scimCredentials, scimSettings, type ScimCredentials, type ScimSettings } from './settings';

const SERVICE_PROVIDER_CONFIG = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';

export const scimConnector: ConnectorDefinition<'hris', ScimSettings, ScimCredentials> = {
  key: 'scim',
  kind: 'hris',
  description: 'Employees and volunteers into your HR directory over SCIM 2.0 (bearer token; create, update, deactivate)',
  settings: scimSettings,
  credentials: scimCredentials,
  async test(settings, credentials, network) {
    // ServiceProviderConfig may be public (RFC 7644 §4), so the token is proven by a one-result /Users search.
    try {
      const config = await scimRequest({ settings, credentials, network }, 'GET', '/ServiceProviderConfig');
      const schemas = config.body?.schemas;
      if (config.status !== 200 || !Array.isArray(schemas) || !schemas.includes(SERVICE_PROVIDER_CONFIG))
        return {
          ok: false,
          code: 'connection_protocol_error',
          message: `${settings.base_url} answered /ServiceProviderConfig with ${config.status}, not a SCIM ServiceProviderConfig`,
        };
      const patch = (config.body?.patch as { supported?: unknown } | undefined)?.supported;
      if (patch !== true)
        return { ok: false, code: 'connection_protocol_error', message: 'The SCIM server does not support PATCH, which updates and deactivation need' };
      const users = await scimRequest({ settings, credentials, network }, 'GET', '/Users?count=1&attributes=id');
      if (users.status !== 200) return { ok: false, code: 'connection_protocol_error', message: `The SCIM server answered /Users with ${users.status}` };
      return { ok: true, detail: `${settings.base_url} is a SCIM 2.0 service with PATCH, and accepted the token` };
    } catch (error) {
      if (!isDomainError(error)) throw error;
      return {
        ok: false,
        code: error.code === 'counterpart_invalid_response' || error.code === 'counterpart_unavailable' ? 'connection_protocol_error' : error.code,
        message: error.message,
      };
    }
  },
  destinations: (s) => [urlDestination('settings.base_url', s.base_url)],
  open: (settings, credentials, context) => new ScimHrisConnector(settings, credentials, context?.network),
};
