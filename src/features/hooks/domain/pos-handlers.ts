/**
 * hris.pos_sync (restaurants): a hire becomes a team member of the restaurant's point of sale
 * (Square: reference_id = the candidate id, its job and wage), a change updates the same member,
 * a termination sets it inactive; or, for a POS without an API (pos-csv), each change is a CSV file
 * on the restaurant's SFTP drop. Each run's key carries the person's revision on the `pos` roster:
 * a report that changes nothing there (a hook fired again) keeps the revision and is the same run,
 * so nothing new is sent; any change, a change back to an earlier state or a rehire and a second
 * termination included, is the next revision and a new run.
 */
import { inject } from 'tsyringe';
import { z } from 'zod';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { EMPLOYEE_ROSTER, type EmployeeRoster } from '../../payroll/domain/employee-roster';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { announce } from './connector-handlers';
import { DOWNLOAD_DELIVERY, POS_CONNECTOR, type DownloadDelivery, type PosConnector, type PosTeamMember, type SyncedTeamMember } from './connectors';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from './hook-handler';
import { candidateHired, employeeTerminated } from './payloads';

/**
 * Each report is also kept on the organization's `pos` roster (before the POS is called, so it
 * holds what the host reported even while the POS is away): that is what the download of all
 * current team members (POST /v1/pos/team_member_exports) is written from.
 */

export const POS_ACTION = 'hris.pos_sync';

/** The hire as the payroll handler reads it, with its pay rate in integer cents. */
export const posHire = candidateHired.extend({
  pay_rate: z
    .object({
      amount: z.number().int().min(1).max(100_000_000_00),
      currency: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as USD'),
      per: z.enum(['hour', 'year']),
    })
    .optional(),
});

/** A file-based POS (pos-csv) wrote the change to a file: where, and its checksum. */
const fileOf = (synced: SyncedTeamMember) => (synced.file ? { path: synced.file.path, sha256: synced.file.sha256 } : {});

function teamMember(hire: z.output<typeof posHire>): Omit<PosTeamMember, 'organizationId' | 'actionKey' | 'idempotencyKey'> {
  const words = hire.candidate.name.trim().split(/\s+/);
  const familyName = words.length > 1 ? words.pop()! : '';
  return {
    referenceId: hire.candidate_id,
    givenName: words.join(' '),
    familyName,
    email: hire.candidate.email,
    phone: hire.candidate.phone ?? null,
    jobTitle: hire.job_title ?? null,
    wage: hire.pay_rate ?? null,
  };
}

/** With a pos-download connection the roster is what there is: the restaurant downloads it for its POS's import page. */
export const POS_DOWNLOAD = 'POST /v1/pos/team_member_exports';
const recordedForDownload = (candidateId: string) => ({ candidate_id: candidateId, recorded: true, delivery: 'download', download: POS_DOWNLOAD });

abstract class PosSync implements GatedHookHandler {
  constructor(
    protected readonly pos: PosConnector,
    protected readonly events: EventPublisher,
    protected readonly logger: Logger,
    protected readonly roster: EmployeeRoster,
    protected readonly clock: Clock,
    protected readonly downloads: DownloadDelivery,
  ) {}

  /** The organization downloads its team members: nothing goes to a POS, no run, no team_member event. */
  protected downloaded(organizationId: string): Promise<boolean> {
    return this.downloads.deliversByDownload(organizationId, 'pos');
  }

  abstract handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport>;

  protected async sync(organizationId: string, hire: z.output<typeof posHire>, prefix: string, report: 'hire' | 'update'): Promise<HookHandlerReport> {
    const person = {
      name: hire.candidate.name,
      email: hire.candidate.email,
      ...(hire.candidate.phone !== undefined || report === 'hire' ? { phone: hire.candidate.phone ?? null } : {}),
      ...(hire.job_title !== undefined || report === 'hire' ? { jobTitle: hire.job_title ?? null } : {}),
      ...(hire.pay_rate !== undefined || report === 'hire' ? { payRate: hire.pay_rate ?? null } : {}),
    };
    // A hire sets the whole member; an update what it carries (the POS keeps a job and wage the update does not name).
    const applied = await this.roster.apply(
      organizationId,
      'pos',
      report === 'hire'
        ? {
            kind: 'hire',
            candidateId: hire.candidate_id,
            person: { department: null, startDate: null, employmentType: null, phone: null, jobTitle: null, payRate: null, ...person },
          }
        : { kind: 'update', candidateId: hire.candidate_id, person },
      this.clock.now(),
    );
    if (await this.downloaded(organizationId)) return recordedForDownload(hire.candidate_id);
    const key = `${prefix}-${organizationId}-${hire.candidate_id}-r${applied.entry.revision}`;
    const synced = await this.pos.syncTeamMember({ organizationId, actionKey: POS_ACTION, idempotencyKey: key, ...teamMember(hire) });
    const result = { candidate_id: hire.candidate_id, team_member_id: synced.teamMemberId, ...fileOf(synced) };
    await announce(this.events, this.logger, 'team_member.synced', organizationId, result, key);
    return result;
  }
}

@HookHandlerFor({
  name: 'pos-team-member-sync',
  hook: 'candidate.hired',
  action: POS_ACTION,
  steps: ['pos'],
  description:
    'Creates the hire as a team member of the point of sale (job, wage) and publishes team_member.synced; with a pos-download connection it is kept on the roster for the download only',
})
export class PosHireHandler extends PosSync {
  constructor(
    @inject(POS_CONNECTOR) pos: PosConnector,
    @inject(EVENT_PUBLISHER) events: EventPublisher,
    @inject(LOGGER) logger: Logger,
    @inject(EMPLOYEE_ROSTER) roster: EmployeeRoster,
    @inject(CLOCK) clock: Clock,
    @inject(DOWNLOAD_DELIVERY) downloads: DownloadDelivery,
  ) {
    super(pos, events, logger, roster, clock, downloads);
  }

  handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const hire = parsePayload(posHire, payload);
    return this.sync(organizationId, hire, 'pos', 'hire');
  }
}

@HookHandlerFor({
  name: 'pos-team-member-update',
  hook: 'employee.updated',
  action: POS_ACTION,
  steps: ['pos'],
  description:
    'Updates (and reactivates) the team member in the point of sale and publishes team_member.synced; with a pos-download connection it is kept on the roster for the download only',
})
export class PosUpdateHandler extends PosSync {
  constructor(
    @inject(POS_CONNECTOR) pos: PosConnector,
    @inject(EVENT_PUBLISHER) events: EventPublisher,
    @inject(LOGGER) logger: Logger,
    @inject(EMPLOYEE_ROSTER) roster: EmployeeRoster,
    @inject(CLOCK) clock: Clock,
    @inject(DOWNLOAD_DELIVERY) downloads: DownloadDelivery,
  ) {
    super(pos, events, logger, roster, clock, downloads);
  }

  handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const change = parsePayload(posHire, payload);
    return this.sync(organizationId, change, 'pos-update', 'update');
  }
}

@HookHandlerFor({
  name: 'pos-team-member-deactivate',
  hook: 'employee.terminated',
  action: POS_ACTION,
  steps: ['pos'],
  description:
    'Sets the team member inactive in the point of sale and publishes team_member.deactivated; with a pos-download connection it is kept on the roster for the download only',
})
export class PosTerminationHandler extends PosSync {
  constructor(
    @inject(POS_CONNECTOR) pos: PosConnector,
    @inject(EVENT_PUBLISHER) events: EventPublisher,
    @inject(LOGGER) logger: Logger,
    @inject(EMPLOYEE_ROSTER) roster: EmployeeRoster,
    @inject(CLOCK) clock: Clock,
    @inject(DOWNLOAD_DELIVERY) downloads: DownloadDelivery,
  ) {
    super(pos, events, logger, roster, clock, downloads);
  }

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const termination = parsePayload(employeeTerminated, payload);
    const applied = await this.roster.apply(organizationId, 'pos', { kind: 'termination', candidateId: termination.candidate_id }, this.clock.now());
    if (await this.downloaded(organizationId)) return recordedForDownload(termination.candidate_id);
    const key = `pos-deactivate-${organizationId}-${termination.candidate_id}-r${applied.entry.revision}`;
    const ended = await this.pos.deactivateTeamMember({ organizationId, actionKey: POS_ACTION, idempotencyKey: key, referenceId: termination.candidate_id });
    const result = { candidate_id: termination.candidate_id, team_member_id: ended.teamMemberId, ...fileOf(ended) };
    await announce(this.events, this.logger, 'team_member.deactivated', organizationId, result, key);
    return result;
  }
}
