/** The `caldav` connector: any CalDAV server (Nextcloud, iCloud, Fastmail, Radicale, Xandikos…) fills the calendar port. */
import { urlDestination } from '../../features/connections/domain/connection-destinations';
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import { CaldavCalendarConnector } from './caldav-calendar';
import { classifyCaldavError } from './caldav-errors';
import { caldavCredentials, caldavSettings, type CaldavCredentials, type CaldavSettings } from './settings';

export const caldavConnector: ConnectorDefinition<'calendar', CaldavSettings, CaldavCredentials> = {
  key: 'caldav',
  kind: 'calendar',
  description: 'A calendar on any CalDAV server: busy times, the events the plugin writes, incremental sync',
  settings: caldavSettings,
  credentials: caldavCredentials,
  async test(settings, credentials, network) {
    // Discovery and the calendar's properties: proves the address, the credentials and the calendar.
    try {
      const calendar = await new CaldavCalendarConnector(settings, credentials, network).discover();
      return { ok: true, detail: `found the calendar ${calendar.url}${calendar.syncToken ? ' (incremental sync)' : ''}` };
    } catch (error) {
      const { code, message } = classifyCaldavError(error);
      // The connection test keeps its codes: a missing calendar is a protocol error there.
      const tested = code === 'counterpart_unavailable' ? 'connection_unreachable' : code === 'calendar_not_found' ? 'connection_protocol_error' : code;
      return { ok: false, code: tested, message };
    }
  },
  destinations: (s) => [
    urlDestination('settings.server_url', s.server_url),
    ...(s.calendar_url ? [urlDestination('settings.calendar_url', s.calendar_url)] : []),
  ],
  open: (settings, credentials, context) => new CaldavCalendarConnector(settings, credentials, context?.network),
};
