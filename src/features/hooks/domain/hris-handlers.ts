/**
 * The HRIS lifecycle after the hire (EmployeeSyncHandler): changes, termination, and a
 * school's cleared volunteers. A change's and a termination's key carries the person's
 * revision on the sync ledger (SYNC_LEDGER): the same report fired again keeps the revision,
 * so it is the same action run (one that succeeded is never performed again), while any
 * different report, a change back to an earlier state or a second termination after a
 * rehire included, is the next revision and a new run.
 */
import { inject } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { announce, employeeFields } from './connector-handlers';
import { HRIS_CONNECTOR, type HrisConnector } from './connectors';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from './hook-handler';
import { employeeTerminated, employeeUpdated, volunteerCleared } from './payloads';
import { reportDigest, SYNC_LEDGER, type SyncLedger } from './sync-ledger';

/** The HRIS's entry on the sync ledger; hires, changes and terminations share it (a rehire follows a termination). */
export const HRIS_SINK = 'hris';

/** What the directory is asked to hold: a hire and a change send the whole record, so they digest alike. */
export const activeEmployeeDigest = (fields: ReturnType<typeof employeeFields>) => reportDigest({ status: 'active', ...fields });
export const TERMINATED_DIGEST = reportDigest({ status: 'terminated' });

@HookHandlerFor({
  name: 'hris-employee-update',
  hook: 'employee.updated',
  action: 'hris.employee_sync',
  steps: ['hris'],
  description: 'Updates the employee in the HRIS (the same person, never a second record) and publishes employee.synced',
})
export class EmployeeUpdateHandler implements GatedHookHandler {
  constructor(
    @inject(HRIS_CONNECTOR) private readonly hris: HrisConnector,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(SYNC_LEDGER) private readonly ledger: SyncLedger,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const change = parsePayload(employeeUpdated, payload);
    const fields = employeeFields(change);
    const digest = activeEmployeeDigest(fields);
    const revision = await this.ledger.advance(
      { organizationId, sink: HRIS_SINK, candidateId: change.candidate_id, email: change.candidate.email, digest },
      this.clock.now(),
    );
    // The digest too: a ledger row erased with the candidate's data restarts at revision 1.
    const key = `${organizationId}-${change.candidate_id}-r${revision}-${digest}`;
    const employee = await this.hris.syncEmployee({ organizationId, actionKey: 'hris.employee_sync', idempotencyKey: `employee-update-${key}`, ...fields });
    const result = { candidate_id: change.candidate_id, employee_id: employee.employeeId };
    await announce(this.events, this.logger, 'employee.synced', organizationId, result, key);
    return result;
  }
}

@HookHandlerFor({
  name: 'hris-employee-deactivate',
  hook: 'employee.terminated',
  action: 'hris.employee_sync',
  steps: ['hris'],
  description: 'Deactivates the employee in the HRIS (active:false, the record kept) and publishes employee.deactivated',
})
export class EmployeeDeactivateHandler implements GatedHookHandler {
  constructor(
    @inject(HRIS_CONNECTOR) private readonly hris: HrisConnector,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(SYNC_LEDGER) private readonly ledger: SyncLedger,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const termination = parsePayload(employeeTerminated, payload);
    const deactivate = this.hris.deactivateEmployee?.bind(this.hris);
    if (!deactivate) throw new Error('the HRIS port cannot deactivate');
    const revision = await this.ledger.advance(
      { organizationId, sink: HRIS_SINK, candidateId: termination.candidate_id, email: null, digest: TERMINATED_DIGEST },
      this.clock.now(),
    );
    const key = `${organizationId}-${termination.candidate_id}-r${revision}-${TERMINATED_DIGEST}`;
    const employee = await deactivate({
      organizationId,
      actionKey: 'hris.employee_sync',
      idempotencyKey: `employee-deactivate-${key}`,
      candidateId: termination.candidate_id,
    });
    const result = { candidate_id: termination.candidate_id, employee_id: employee.employeeId };
    await announce(this.events, this.logger, 'employee.deactivated', organizationId, result, key);
    return result;
  }
}

@HookHandlerFor({
  name: 'hris-volunteer-provision',
  hook: 'volunteer.cleared',
  action: 'hris.volunteer_management',
  steps: ['hris'],
  description: "Provisions a cleared volunteer into the district's directory (SCIM userType Volunteer) and publishes volunteer.provisioned",
})
export class VolunteerProvisionHandler implements GatedHookHandler {
  constructor(
    @inject(HRIS_CONNECTOR) private readonly hris: HrisConnector,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const volunteer = parsePayload(volunteerCleared, payload);
    const employee = await this.hris.syncEmployee({
      organizationId,
      actionKey: 'hris.volunteer_management',
      idempotencyKey: `volunteer-${organizationId}-${volunteer.candidate_id}`,
      candidateId: volunteer.candidate_id,
      name: volunteer.candidate.name,
      email: volunteer.candidate.email,
      jobTitle: volunteer.role ?? 'Volunteer',
      startDate: null,
      department: volunteer.school ?? null,
      workerType: 'volunteer',
    });
    const result = { candidate_id: volunteer.candidate_id, employee_id: employee.employeeId };
    await announce(this.events, this.logger, 'volunteer.provisioned', organizationId, result, `${organizationId}-${volunteer.candidate_id}`);
    return result;
  }
}
