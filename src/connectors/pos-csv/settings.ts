/** The file-based POS connector's settings and credentials: the SFTP connector's (host key pinned) plus the file format. */
import { z } from 'zod';
import { POS_TEAM_MEMBER_FORMAT } from '../../features/hooks/domain/pos-team-member-file';
import { sftpCredentials, sftpSettings } from '../sftp/settings';

export { POS_TEAM_MEMBER_FORMAT };

export const posCsvSettings = sftpSettings.extend({
  format: z
    .enum([POS_TEAM_MEMBER_FORMAT])
    .default(POS_TEAM_MEMBER_FORMAT)
    .meta({ description: 'The CSV layout written (docs/hr-payroll-payouts.md): pos_team_member.v1, the generic team-member schema' }),
});

export const posCsvCredentials = sftpCredentials;

export type PosCsvSettings = z.output<typeof posCsvSettings>;
export type PosCsvCredentials = z.output<typeof posCsvCredentials>;
