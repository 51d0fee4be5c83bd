/**
 * payroll.payroll_sync: each hire leaves for payroll as a new-hire CSV file on the
 * organization's file drop (SFTP). The idempotency key is the hire's, so a hook fired
 * twice delivers one file; the run's reference is the file's SHA-256. Each hire, change and
 * termination is also kept on the organization's payroll roster and journal: the changes
 * leave as the day's change.v1 batch (domain/change-batches.ts), the hires can be downloaded.
 */
import { inject } from 'tsyringe';
import { z } from 'zod';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { announce } from '../../hooks/domain/connector-handlers';
import { DOWNLOAD_DELIVERY, PAYROLL_FILE_CONNECTOR, type DownloadDelivery, type PayrollFileConnector } from '../../hooks/domain/connectors';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import { employeeTerminated } from '../../hooks/domain/payloads';
import { EMPLOYEE_ROSTER, type AppliedReport, type EmployeeRoster, type RosterPerson } from './employee-roster';
import { newHireCsv, payrollHire, type PayrollHire } from './new-hire-file';

/** Why (up to 200 characters; an empty one is none). */
const reason = z
  .string()
  .trim()
  .max(200)
  .optional()
  .transform((value) => value || undefined);

/** employee.updated as payroll reads it: the hire's fields, when the change takes effect and why. */
export const payrollChange = payrollHire.extend({ effective_date: z.iso.date().optional(), reason });
export const payrollTermination = employeeTerminated.extend({ reason });

const personOf = (hire: PayrollHire): RosterPerson => ({
  name: hire.candidate.name,
  email: hire.candidate.email,
  phone: null,
  jobTitle: hire.job_title ?? null,
  department: hire.department ?? null,
  startDate: hire.start_date ?? null,
  employmentType: hire.employment_type ?? null,
  payRate: hire.pay_rate ?? null,
});

/** An update sets only what it carries: a field left out (a pay rate the host does not send) is unchanged. */
const reportedOf = (change: z.output<typeof payrollChange>): Partial<RosterPerson> => {
  const person: Partial<RosterPerson> = { name: change.candidate.name, email: change.candidate.email };
  if (change.job_title !== undefined) person.jobTitle = change.job_title;
  if (change.department !== undefined) person.department = change.department;
  if (change.start_date !== undefined) person.startDate = change.start_date;
  if (change.employment_type !== undefined) person.employmentType = change.employment_type;
  if (change.pay_rate !== undefined) person.payRate = change.pay_rate;
  return person;
};

/** With a payroll-download connection the record is what there is: it leaves when the organization downloads it. */
const forDownload = (download: string) => ({ delivery: 'download', download });
export const NEW_HIRE_DOWNLOAD = 'POST /v1/payroll/new_hire_batches';
export const CHANGE_DOWNLOAD = 'POST /v1/payroll/change_batches';

/** What the hook answers about a change: recorded for the day's batch, or nothing new (a retry). */
const changeReport = (candidateId: string, applied: AppliedReport): HookHandlerReport =>
  applied.record
    ? {
        candidate_id: candidateId,
        recorded: true,
        change_id: applied.record.id,
        change_type: applied.record.kind,
        changed_fields: applied.record.changedFields,
        effective_date: applied.record.effectiveDate,
        batch_date: applied.record.recordedAt.toISOString().slice(0, 10),
      }
    : { candidate_id: candidateId, recorded: false };

@HookHandlerFor({
  name: 'payroll-new-hire-file',
  hook: 'candidate.hired',
  action: 'payroll.payroll_sync',
  steps: ['payroll_files'],
  description:
    "Delivers the hire to payroll as a new_hire.v1 CSV file (SFTP) and publishes payroll.file_delivered with its SHA-256; with a payroll-download connection it is recorded for the day's new-hire download instead",
})
export class PayrollNewHireFileHandler implements GatedHookHandler {
  constructor(
    @inject(PAYROLL_FILE_CONNECTOR) private readonly files: PayrollFileConnector,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(EMPLOYEE_ROSTER) private readonly roster: EmployeeRoster,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(DOWNLOAD_DELIVERY) private readonly downloads: DownloadDelivery,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const hire = parsePayload(payrollHire, payload);
    // Kept first: the roster is what later changes are compared with, and the day's hires can be downloaded.
    const applied = await this.roster.apply(
      organizationId,
      'payroll',
      { kind: 'hire', candidateId: hire.candidate_id, person: personOf(hire) },
      this.clock.now(),
    );
    // Downloaded, not delivered: no file run, no payroll.file_delivered.
    if (await this.downloads.deliversByDownload(organizationId, 'payroll_files'))
      return { ...changeReport(hire.candidate_id, applied), format: 'new_hire.v1', ...forDownload(NEW_HIRE_DOWNLOAD) };
    const file = await this.files.deliverFile({
      organizationId,
      actionKey: 'payroll.payroll_sync',
      idempotencyKey: `payroll-new-hire-${organizationId}-${hire.candidate_id}`,
      fileName: `new-hire-${hire.candidate_id}.csv`,
      content: newHireCsv(hire),
    });
    const result = { candidate_id: hire.candidate_id, format: 'new_hire.v1', path: file.path, sha256: file.sha256, run_id: file.deliveryId };
    await announce(this.events, this.logger, 'payroll.file_delivered', organizationId, result, `${organizationId}-new-hire-${hire.candidate_id}`);
    return result;
  }
}

@HookHandlerFor({
  name: 'payroll-change-record',
  hook: 'employee.updated',
  action: 'payroll.payroll_sync',
  steps: ['payroll_files'],
  description:
    "Records a change payroll reads (name, email, job title, department, start date, employment type, pay rate: old → new) for the day's change.v1 batch; the same change reported again is recorded once",
})
export class PayrollChangeHandler implements GatedHookHandler {
  constructor(
    @inject(EMPLOYEE_ROSTER) private readonly roster: EmployeeRoster,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(DOWNLOAD_DELIVERY) private readonly downloads: DownloadDelivery,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const change = parsePayload(payrollChange, payload);
    const applied = await this.roster.apply(
      organizationId,
      'payroll',
      { kind: 'update', candidateId: change.candidate_id, person: reportedOf(change), effectiveDate: change.effective_date, reason: change.reason },
      this.clock.now(),
    );
    return this.report(organizationId, changeReport(change.candidate_id, applied));
  }

  private async report(organizationId: string, report: HookHandlerReport): Promise<HookHandlerReport> {
    return (await this.downloads.deliversByDownload(organizationId, 'payroll_files')) ? { ...report, ...forDownload(CHANGE_DOWNLOAD) } : report;
  }
}

@HookHandlerFor({
  name: 'payroll-termination-record',
  hook: 'employee.terminated',
  action: 'payroll.payroll_sync',
  steps: ['payroll_files'],
  description: "Records the termination (effective terminated_on, with the reason) for the day's change.v1 batch; reported again, it is recorded once",
})
export class PayrollTerminationHandler implements GatedHookHandler {
  constructor(
    @inject(EMPLOYEE_ROSTER) private readonly roster: EmployeeRoster,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(DOWNLOAD_DELIVERY) private readonly downloads: DownloadDelivery,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const termination = parsePayload(payrollTermination, payload);
    const applied = await this.roster.apply(
      organizationId,
      'payroll',
      { kind: 'termination', candidateId: termination.candidate_id, effectiveDate: termination.terminated_on, reason: termination.reason },
      this.clock.now(),
    );
    return this.report(organizationId, changeReport(termination.candidate_id, applied));
  }

  private async report(organizationId: string, report: HookHandlerReport): Promise<HookHandlerReport> {
    return (await this.downloads.deliversByDownload(organizationId, 'payroll_files')) ? { ...report, ...forDownload(CHANGE_DOWNLOAD) } : report;
  }
}
