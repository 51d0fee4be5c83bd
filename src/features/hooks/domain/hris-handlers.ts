/**
 * The HRIS lifecycle after the hire (EmployeeSyncHandler): changes, termination, and a
 * school's cleared volunteers. Idempotency keys come from the host's ids; a change's key
 * also carries a digest of what changed, so the same change fired twice is one update and
 * the next change is a new one (an action run that succeeded is never performed again).
 */
import { createHash } from 'node:crypto';
import { inject } from 'tsyringe';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { announce, employeeFields } from './connector-handlers';
import { HRIS_CONNECTOR, type HrisConnector } from './connectors';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from './hook-handler';
import { employeeTerminated, employeeUpdated, volunteerCleared } from './payloads';

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

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
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const change = parsePayload(employeeUpdated, payload);
    const version = digest(change);
    const employee = await this.hris.syncEmployee({
      organizationId,
      actionKey: 'hris.employee_sync',
      idempotencyKey: `employee-update-${organizationId}-${change.candidate_id}-${version}`,
      ...employeeFields(change),
    });
    const result = { candidate_id: change.candidate_id, employee_id: employee.employeeId };
    await announce(this.events, this.logger, 'employee.synced', organizationId, result, `${organizationId}-${change.candidate_id}-${version}`);
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
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const termination = parsePayload(employeeTerminated, payload);
    const deactivate = this.hris.deactivateEmployee?.bind(this.hris);
    if (!deactivate) throw new Error('the HRIS port cannot deactivate');
    const employee = await deactivate({
      organizationId,
      actionKey: 'hris.employee_sync',
      idempotencyKey: `employee-deactivate-${organizationId}-${termination.candidate_id}`,
      candidateId: termination.candidate_id,
    });
    const result = { candidate_id: termination.candidate_id, employee_id: employee.employeeId };
    await announce(this.events, this.logger, 'employee.deactivated', organizationId, result, `${organizationId}-${termination.candidate_id}`);
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
