/**
 * hris.pos_sync for a point of sale whose employee import is a web page (Toast, Clover): every
 * current team member in one pos_team_member.v1 file to upload, written from the organization's
 * `pos` roster (what the host reported on candidate.hired, employee.updated and
 * employee.terminated), not one file per change. Each download is an action run whose
 * reference is the file's SHA-256.
 */
import { createHash } from 'node:crypto';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import { splitName } from './new-hire-file';
import { requireLicense, type PayoutsGate } from '../../payouts/domain/license-check';
import { POS_TEAM_MEMBER_FORMAT, teamMembersCsv } from '../../hooks/domain/pos-team-member-file';
import type { EmployeeRoster } from './employee-roster';

export const POS_ACTION = 'hris.pos_sync';

export interface TeamMemberExport {
  format: typeof POS_TEAM_MEMBER_FORMAT;
  status: 'active' | 'all';
  destination: 'download';
  fileName: string;
  sha256: string;
  rows: number;
  runId: string;
  content: string;
}

export class PosTeamMemberExports {
  constructor(
    private readonly roster: EmployeeRoster,
    private readonly runner: ActionRunner,
    private readonly gate: PayoutsGate,
  ) {}

  /** `active`: the active team members (upserts); `all`: the terminated ones too, as deactivations. */
  async export(organizationId: string, status: 'active' | 'all'): Promise<TeamMemberExport> {
    await requireLicense(this.gate, organizationId, POS_ACTION);
    const entries = await this.roster.list(organizationId, 'pos', status);
    const content = teamMembersCsv(
      entries.map((e) => {
        const { first, last } = splitName(e.name ?? '');
        return {
          referenceId: e.candidateId,
          givenName: first,
          familyName: last,
          email: e.email,
          phone: e.phone,
          jobTitle: e.jobTitle,
          wage: e.payRate,
          active: e.status === 'active',
        };
      }),
    );
    const sha256 = createHash('sha256').update(content, 'utf8').digest('hex');
    const fileName = `team-members-${sha256.slice(0, 12)}.csv`;
    const run = await this.runner.perform(
      {
        organizationId,
        idempotencyKey: `pos-team-members-download-${organizationId}-${status}-${sha256}`,
        action: POS_ACTION,
        step: 'pos',
        connector: 'download',
        connectionId: null,
        livemode: true,
      },
      async () => ({ reference: `sha256:${sha256}`, answer: { file_name: fileName, rows: entries.length } }),
    );
    return { format: POS_TEAM_MEMBER_FORMAT, status, destination: 'download', fileName, sha256, rows: entries.length, runId: run.id, content };
  }
}
