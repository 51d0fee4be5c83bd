/**
 * Payroll (payroll.contractor_export built in; payroll.payroll_sync's hook handlers are listed in
 * features/hooks): contractors' W-9 details, the contractor/1099 file on demand (SFTP or
 * download) and once a year on schedule, the daily worked-hours and change batches and the
 * day's hires (payroll.payroll_sync), and the employee roster (payroll and POS) with the POS
 * download of every current team member (hris.pos_sync). Contractors, the roster and the payroll
 * journal are personal data, registered like candidates' (matched by email).
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { BULLMQ_QUEUES } from '../../composition/infrastructure';
import { CLOCK, type Clock } from '../../kernel/clock';
import { EVENT_PUBLISHER, type EventPublisher } from '../../kernel/events';
import { LOGGER, type Logger } from '../../kernel/logger';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import type { BullmqJobQueue } from '../../platform/queue/bullmq-queue';
import { ActionRunner } from '../action-runs/domain/action-runner';
import { DOWNLOAD_DELIVERY, PAYROLL_FILE_CONNECTOR, type DownloadDelivery, type PayrollFileConnector } from '../hooks/domain/connectors';
import { HookGate } from '../hooks/domain/hook-gate';
import { candidateStore } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { APPROVED_TIMESHEETS, type ApprovedTimesheets } from '../timesheets/domain/ports';
import { CONTRACTOR_EXPORT_ACTION, CONTRACTOR_PAYMENTS, CONTRACTOR_REPOSITORY, type ContractorPayments, type ContractorRepository } from './domain/contractor';
import { ContractorExports } from './domain/contractor-exports';
import { payrollRoutes } from './http/payroll-router';
import { posRoutes } from './http/pos-router';
import { ChangeBatches } from './domain/change-batches';
import { EMPLOYEE_ROSTER, type EmployeeRoster } from './domain/employee-roster';
import { PosTeamMemberExports } from './domain/pos-team-member-exports';
import { KnexEmployeeRoster } from './storage/knex-employee-roster';
import { HoursBatches } from './domain/hours-batches';
import { PayrollFileSweep, schedulePayrollFiles } from './jobs/payroll-file-sweep';
import { KnexApprovalActivity } from './storage/knex-approval-activity';
import { KnexContractorPayments } from './storage/knex-contractor-payments';
import { KnexContractorRepository } from './storage/knex-contractor-repository';

export const payrollModule: PluginModule = {
  name: 'payroll',
  builtInActions: [CONTRACTOR_EXPORT_ACTION],
  register(container) {
    const db = container.resolve<Database>(DATABASE);
    container.register(CONTRACTOR_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexContractorRepository(db)) });
    container.register(CONTRACTOR_PAYMENTS, {
      useFactory: instanceCachingFactory(
        (c) => new KnexContractorPayments(db, () => (c.isRegistered(APPROVED_TIMESHEETS) ? c.resolve<ApprovedTimesheets>(APPROVED_TIMESHEETS) : undefined)),
      ),
    });
    container.register(ContractorExports, {
      useFactory: instanceCachingFactory(
        (c) =>
          new ContractorExports(
            c.resolve<ContractorRepository>(CONTRACTOR_REPOSITORY),
            c.resolve<ContractorPayments>(CONTRACTOR_PAYMENTS),
            c.resolve<PayrollFileConnector>(PAYROLL_FILE_CONNECTOR),
            c.resolve(ActionRunner),
            c.resolve(HookGate),
            c.resolve<EventPublisher>(EVENT_PUBLISHER),
            c.resolve<Logger>(LOGGER),
            () => c.resolve<Clock>(CLOCK).now(),
            c.resolve<DownloadDelivery>(DOWNLOAD_DELIVERY),
          ),
      ),
    });
    container.register(HoursBatches, {
      useFactory: instanceCachingFactory(
        (c) =>
          new HoursBatches(
            () => (c.isRegistered(APPROVED_TIMESHEETS) ? c.resolve<ApprovedTimesheets>(APPROVED_TIMESHEETS) : undefined),
            new KnexApprovalActivity(db),
            c.resolve<PayrollFileConnector>(PAYROLL_FILE_CONNECTOR),
            c.resolve(ActionRunner),
            c.resolve(HookGate),
            c.resolve<EventPublisher>(EVENT_PUBLISHER),
            c.resolve<Logger>(LOGGER),
            () => c.resolve<Clock>(CLOCK).now(),
            c.resolve<DownloadDelivery>(DOWNLOAD_DELIVERY),
          ),
      ),
    });
    container.register(EMPLOYEE_ROSTER, { useFactory: instanceCachingFactory(() => new KnexEmployeeRoster(db)) });
    container.register(ChangeBatches, {
      useFactory: instanceCachingFactory(
        (c) =>
          new ChangeBatches(
            c.resolve<EmployeeRoster>(EMPLOYEE_ROSTER),
            c.resolve<PayrollFileConnector>(PAYROLL_FILE_CONNECTOR),
            c.resolve(ActionRunner),
            c.resolve(HookGate),
            c.resolve<EventPublisher>(EVENT_PUBLISHER),
            c.resolve<Logger>(LOGGER),
            () => c.resolve<Clock>(CLOCK).now(),
            c.resolve<DownloadDelivery>(DOWNLOAD_DELIVERY),
          ),
      ),
    });
    container.register(PosTeamMemberExports, {
      useFactory: instanceCachingFactory(
        (c) => new PosTeamMemberExports(c.resolve<EmployeeRoster>(EMPLOYEE_ROSTER), c.resolve(ActionRunner), c.resolve(HookGate)),
      ),
    });
    container.register(PayrollFileSweep, {
      useFactory: instanceCachingFactory((c) => new PayrollFileSweep(c.resolve(ContractorExports), c.resolve(HoursBatches), c.resolve(ChangeBatches))),
    });
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'payroll_contractors',
          description: "Contractors' W-9 details for the 1099 export (legal name, email, TIN type and last four digits, mailing address), matched by email",
          table: 'hi_payroll_contractors',
          where: (q, s) => q.where({ organization_id: s.organizationId }).whereIn('email', [...s.emails]),
        }),
      ),
    );
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'employee_roster',
          description:
            'What the host reported about each hired person for payroll and the point of sale (name, email, phone, job title, department, start date, employment type, pay rate, status), matched by email',
          table: 'hi_employee_roster',
          where: (q, s) => q.where({ organization_id: s.organizationId }).whereIn('email', [...s.emails]),
        }),
      ),
    );
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'payroll_changes',
          description:
            "The payroll journal: each hire, change and termination (the person as payroll reads them, old and new pay rate, effective date, reason) the day's change.v1 batch and the new-hire download are written from, matched by email",
          table: 'hi_payroll_changes',
          where: (q, s) => q.where({ organization_id: s.organizationId }).whereIn('email', [...s.emails]),
        }),
      ),
    );
  },
  routers: [
    {
      name: 'payroll',
      create: (container, kit) =>
        kit.build('payroll', payrollRoutes(container.resolve(ContractorExports), container.resolve(HoursBatches), container.resolve(ChangeBatches))),
    },
    { name: 'pos', create: (container, kit) => kit.build('pos', posRoutes(container.resolve(PosTeamMemberExports))) },
  ],
  processors: (container: DependencyContainer) => [container.resolve(PayrollFileSweep)],
  async start(container, { logger }) {
    const bullmq = container.isRegistered(BULLMQ_QUEUES) ? container.resolve<BullmqJobQueue>(BULLMQ_QUEUES) : undefined;
    const stop = await schedulePayrollFiles(container.resolve(PayrollFileSweep), bullmq, logger);
    return async () => stop();
  },
};
