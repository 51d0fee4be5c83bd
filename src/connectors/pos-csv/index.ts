/**
 * The `pos-csv` connector (kind `pos`): for a point of sale without an API, each hire, update and
 * termination is a `pos_team_member.v1` CSV file on the restaurant's SFTP server (the payroll
 * SFTP delivery: host key pinned), for the POS's employee import.
 */
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import { sftpConnector } from '../sftp';
import { PosCsvConnector } from './pos-csv-connector';
import { posCsvCredentials, posCsvSettings, type PosCsvCredentials, type PosCsvSettings } from './settings';

export const posCsvConnector: ConnectorDefinition<'pos', PosCsvSettings, PosCsvCredentials> = {
  key: 'pos-csv',
  kind: 'pos',
  description: 'Team members as pos_team_member.v1 CSV files on your SFTP server, for a point of sale without an API (host key pinned)',
  settings: posCsvSettings,
  credentials: posCsvCredentials,
  // The same round trip as the SFTP connector's: the pinned host key, the credentials, the directory.
  test: (settings, credentials, network) => sftpConnector.test(settings, credentials, network),
  destinations: (s) => [{ param: 'settings.host', host: s.host }],
  open: (settings, credentials, context) => new PosCsvConnector(settings, credentials, context?.network),
};
