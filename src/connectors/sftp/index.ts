/** The `sftp` connector: payroll files (CSV) delivered to the organization's SFTP server, host key pinned. */
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import { isDomainError } from '../../kernel/errors';
import { SftpFileConnector } from './sftp-file-connector';
import { openSftp, sftpFailure } from './sftp-session';
import { sftpCredentials, sftpSettings, type SftpCredentials, type SftpSettings } from './settings';

export const sftpConnector: ConnectorDefinition<'payroll_files', SftpSettings, SftpCredentials> = {
  key: 'sftp',
  kind: 'payroll_files',
  description: 'Payroll files (CSV) onto your SFTP server: host key pinned, password or key authentication, atomic rename',
  settings: sftpSettings,
  credentials: sftpCredentials,
  async test(settings, credentials, network) {
    try {
      const session = await openSftp(settings, credentials, network);
      try {
        const kind = await session.client.exists(settings.directory);
        if (kind !== 'd') return { ok: false, code: 'directory_missing', message: `${settings.directory} is not a directory on the server` };
        return { ok: true, detail: `${settings.host}:${settings.port} presented the pinned host key, accepted the credentials and has ${settings.directory}` };
      } finally {
        await session.close();
      }
    } catch (error) {
      const failure = isDomainError(error) ? error : sftpFailure(error);
      return { ok: false, code: failure.code, message: failure.message };
    }
  },
  destinations: (s) => [{ param: 'settings.host', host: s.host }],
  open: (settings, credentials, context) => new SftpFileConnector(settings, credentials, context?.network),
};
