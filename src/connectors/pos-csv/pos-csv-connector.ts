/**
 * The POS port for a point of sale without an API: each change of a team member is a
 * `pos_team_member.v1` CSV file delivered to the restaurant's SFTP drop by the payroll SFTP
 * delivery (host key pinned, written under a temporary name and renamed, never overwritten
 * with other bytes). The file name carries the change's idempotency key (digested), so a
 * retried change writes the same file once; the team member's id is our external id.
 */
import type { ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import { createHash } from 'node:crypto';
import type { PosConnector, PosDeactivation, PosTeamMember, SyncedTeamMember } from '../../features/hooks/domain/connectors';
import { SftpFileConnector } from '../sftp/sftp-file-connector';
import type { PosCsvCredentials, PosCsvSettings } from './settings';
import { deactivationCsv, teamMemberCsv } from '../../features/hooks/domain/pos-team-member-file';

const fileNameOf = (referenceId: string, idempotencyKey: string) =>
  `team-member-${referenceId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64)}-${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 12)}.csv`;

export class PosCsvConnector implements PosConnector {
  private readonly files: SftpFileConnector;

  constructor(settings: PosCsvSettings, credentials: PosCsvCredentials, network?: ConnectorNetwork) {
    this.files = new SftpFileConnector(settings, credentials, network);
  }

  syncTeamMember(m: PosTeamMember): Promise<SyncedTeamMember> {
    return this.write(m.organizationId, m.actionKey, m.idempotencyKey, m.referenceId, teamMemberCsv(m));
  }

  deactivateTeamMember(r: PosDeactivation): Promise<SyncedTeamMember> {
    return this.write(r.organizationId, r.actionKey, r.idempotencyKey, r.referenceId, deactivationCsv(r));
  }

  private async write(organizationId: string, actionKey: string, idempotencyKey: string, referenceId: string, content: string): Promise<SyncedTeamMember> {
    const file = await this.files.deliverFile({ organizationId, actionKey, idempotencyKey, fileName: fileNameOf(referenceId, idempotencyKey), content });
    return { deliveryId: idempotencyKey, reference: `sha256:${file.sha256}`, teamMemberId: referenceId, file: { path: file.path, sha256: file.sha256 } };
  }
}
