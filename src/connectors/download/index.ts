/**
 * The download connectors `payroll-download` (kind payroll_files) and `pos-download` (kind pos):
 * the organization's explicit choice to fetch its payroll and POS files through the API (a payroll
 * team importing by hand, a Toast or Clover restaurant with only a web import page) instead of
 * having them delivered to a server. There is nothing to connect to: the test succeeds saying so,
 * and the port delivers nothing. The hook handlers and the scheduled sweeps ask the resolver
 * (`deliversByDownload`) first and only keep the roster and journal; a step that would deliver
 * anyway (an on-demand `destination: sftp`) fails honestly with `delivery_download_only`.
 *
 * Two keys, not one `download` connector: a connector fills exactly one kind (the resolver and the
 * catalog map key → kind), and each kind's license activates on its own connection.
 */
import { z } from 'zod';
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import type { PayrollFileConnector, PosConnector } from '../../features/hooks/domain/connectors';
import { conflict } from '../../kernel/errors';

export const downloadSettings = z.object({}).strict().default({}).meta({ description: 'None: files are downloaded through the API' });
export const downloadCredentials = z.object({}).strict().default({}).meta({ description: 'None: nothing to connect to' });
export type DownloadSettings = z.output<typeof downloadSettings>;
export type DownloadCredentials = z.output<typeof downloadCredentials>;

export const DOWNLOAD_ONLY_CODE = 'delivery_download_only';

const downloadOnly = (what: string) =>
  conflict(DOWNLOAD_ONLY_CODE, `The organization downloads its ${what} through the API (a download connection): nothing is delivered to a server`);

const test = async () => ({ ok: true as const, detail: 'Files are downloaded through the API; nothing to connect to' });

export const payrollDownloadConnector: ConnectorDefinition<'payroll_files', DownloadSettings, DownloadCredentials> = {
  key: 'payroll-download',
  kind: 'payroll_files',
  description:
    'Payroll files downloaded through the API (new hires, change batches, hours, contractors) instead of delivered to an SFTP server: no server settings',
  downloadOnly: true,
  settings: downloadSettings,
  credentials: downloadCredentials,
  test,
  // Reaches no host at all (declared, so the SSRF guard knows it was considered).
  destinations: () => [],
  open: (): PayrollFileConnector => ({
    deliverFile: () => Promise.reject(downloadOnly('payroll files')),
    deliverFileStream: () => Promise.reject(downloadOnly('payroll files')),
  }),
};

export const posDownloadConnector: ConnectorDefinition<'pos', DownloadSettings, DownloadCredentials> = {
  key: 'pos-download',
  kind: 'pos',
  description:
    'Team members downloaded through the API (POST /v1/pos/team_member_exports) for a point of sale with only a web import page (Toast, Clover): no server settings',
  downloadOnly: true,
  settings: downloadSettings,
  credentials: downloadCredentials,
  test,
  // Reaches no host at all (declared, so the SSRF guard knows it was considered).
  destinations: () => [],
  open: (): PosConnector => ({
    syncTeamMember: () => Promise.reject(downloadOnly('team member files')),
    deactivateTeamMember: () => Promise.reject(downloadOnly('team member files')),
  }),
};
