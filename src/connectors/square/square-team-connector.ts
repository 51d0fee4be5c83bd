/**
 * The POS port over Square's Team API: a hire is a team member found by `reference_id` (our
 * candidate id: searched first, so a repeated hire updates rather than duplicates; the create
 * carries an idempotency key too), its job found by title or created, and its wage setting
 * (hourly or annual, integer cents as Square's Money). A termination sets the member INACTIVE.
 */
import type { ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import { createHash } from 'node:crypto';
import { DomainError } from '../../kernel/errors';
import type { PosConnector, PosDeactivation, PosTeamMember, SyncedTeamMember } from '../../features/hooks/domain/connectors';
import type { SquareCredentials, SquareSettings } from './settings';
import { SquareClient } from './square-client';

interface TeamMember {
  id?: string;
  reference_id?: string | null;
}
interface Job {
  id?: string;
  title?: string;
}

/** Pages read at most while looking a member or job up; a repeated cursor also ends the walk. */
const MAX_PAGES = 50;

export class SquareTeamConnector implements PosConnector {
  private readonly square: SquareClient;

  constructor(settings: SquareSettings, credentials: SquareCredentials, network?: ConnectorNetwork) {
    this.square = new SquareClient(settings, credentials, network);
  }

  async syncTeamMember(m: PosTeamMember): Promise<SyncedTeamMember> {
    const fields = {
      reference_id: m.referenceId,
      given_name: m.givenName,
      family_name: m.familyName,
      ...(m.email ? { email_address: m.email } : {}),
      ...(m.phone ? { phone_number: m.phone } : {}),
      status: 'ACTIVE',
    };
    const existing = await this.findByReference(m.referenceId);
    let teamMemberId: string;
    if (existing) {
      await this.square.call('PUT', `/v2/team-members/${encodeURIComponent(existing)}`, 'the team member update', { team_member: fields });
      teamMemberId = existing;
    } else {
      const created = await this.square.call<{ team_member?: TeamMember }>('POST', '/v2/team-members', 'the new team member', {
        idempotency_key: key(m.idempotencyKey),
        team_member: fields,
      });
      teamMemberId = idOf(created.team_member, 'the new team member');
    }
    if (m.jobTitle) {
      const jobId = await this.jobFor(m.jobTitle, m.idempotencyKey);
      const rate = m.wage ? { amount: m.wage.amount, currency: m.wage.currency } : undefined;
      const assignment = {
        job_id: jobId,
        pay_type: !m.wage ? 'NONE' : m.wage.per === 'hour' ? 'HOURLY' : 'SALARY',
        ...(rate && m.wage?.per === 'hour' ? { hourly_rate: rate } : {}),
        ...(rate && m.wage?.per === 'year' ? { annual_rate: rate } : {}),
      };
      await this.square.call('PUT', `/v2/team-members/${encodeURIComponent(teamMemberId)}/wage-setting`, 'the wage setting', {
        wage_setting: { job_assignments: [assignment] },
      });
    }
    return { deliveryId: m.idempotencyKey, reference: teamMemberId, teamMemberId };
  }

  async deactivateTeamMember(r: PosDeactivation): Promise<SyncedTeamMember> {
    const existing = await this.findByReference(r.referenceId);
    if (!existing) throw new DomainError('conflict', 'employee_not_found', 'Square holds no team member with this reference_id');
    await this.square.call('PUT', `/v2/team-members/${encodeURIComponent(existing)}`, 'the team member deactivation', { team_member: { status: 'INACTIVE' } });
    return { deliveryId: r.idempotencyKey, reference: existing, teamMemberId: existing };
  }

  /** Square's search filters by location and status, not reference_id: the members are read and matched here. */
  private async findByReference(referenceId: string): Promise<string | undefined> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.square.call<{ team_members?: TeamMember[]; cursor?: string }>('POST', '/v2/team-members/search', 'the team member search', {
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      const found = (answer.team_members ?? []).find((t) => t.reference_id === referenceId);
      if (found) return idOf(found, 'the team member search');
      if (!answer.cursor || seen.has(answer.cursor)) return undefined;
      seen.add(answer.cursor);
      cursor = answer.cursor;
    }
    return undefined;
  }

  private async jobFor(title: string, idempotencyKey: string): Promise<string> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const answer = await this.square.call<{ jobs?: Job[]; cursor?: string }>(
        'GET',
        `/v2/team-members/jobs${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
        'the job list',
      );
      const found = (answer.jobs ?? []).find((j) => j.title?.trim().toLowerCase() === title.trim().toLowerCase());
      if (found) return idOf(found, 'the job list');
      if (!answer.cursor || seen.has(answer.cursor)) break;
      seen.add(answer.cursor);
      cursor = answer.cursor;
    }
    const created = await this.square.call<{ job?: Job }>('POST', '/v2/team-members/jobs', 'the new job', {
      idempotency_key: key(`job-${idempotencyKey}-${title}`),
      job: { title: title.slice(0, 150) },
    });
    return idOf(created.job, 'the new job');
  }
}

/** Square's idempotency keys are at most 45 characters: a longer key is shortened to a digest. */
function key(value: string): string {
  if (value.length <= 45) return value;
  return `k-${createHash('sha256').update(value).digest('hex').slice(0, 40)}`;
}

function idOf(object: { id?: unknown } | undefined, what: string): string {
  if (typeof object?.id !== 'string' || object.id.length === 0)
    throw new DomainError('conflict', 'counterpart_invalid_response', `Square answered ${what} without an id`);
  return object.id;
}
