/**
 * Timesheets (payroll.time_tracking): placements, weekly timesheets, the client contact's
 * approval page, and the ApprovedTimesheets read port (payouts, payroll, invoicing read it).
 * Workers' and contacts' personal data are registered like candidates'.
 */
import { instanceCachingFactory } from 'tsyringe';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { deriveKey } from '../../platform/security/key-derivation';
import { MESSAGE_LINK_KEY } from '../messages/domain/signed-links';
import { candidateStore } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { CLIENT_INVOICE_DOCUMENTS, CLIENT_INVOICE_REPOSITORY, INVOICING_ACTION, type ClientInvoiceDocuments } from './domain/client-invoice';
import { ClientInvoiceService } from './domain/client-invoice-service';
import { APPROVED_TIMESHEETS, TIMESHEET_APPROVAL_LISTENERS, TIMESHEET_OPTIONS, TIMESHEET_REPOSITORY, TimesheetApprovalListeners } from './domain/ports';
import { BillingRendererClientInvoices } from './documents/client-invoice-document';
import { clientInvoiceRoutes } from './http/client-invoices-router';
import { KnexClientInvoiceRepository } from './storage/knex-client-invoice-repository';
import { TimesheetService } from './domain/timesheet-service';
import { timesheetReviewRouter } from './http/timesheet-review-router';
import { timesheetRoutes } from './http/timesheets-router';
import { KnexApprovedTimesheets } from './storage/knex-approved-timesheets';
import { KnexTimesheetRepository } from './storage/knex-timesheet-repository';
import { TIME_TRACKING_ACTION } from './domain/timesheet';

export const timesheetsModule: PluginModule = {
  name: 'timesheets',
  builtInActions: [TIME_TRACKING_ACTION, INVOICING_ACTION],
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    if (!container.isRegistered(MESSAGE_LINK_KEY)) container.register(MESSAGE_LINK_KEY, { useValue: deriveKey(config.secretKey, 'message-links') });
    container.register(TIMESHEET_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexTimesheetRepository(db)) });
    container.register(APPROVED_TIMESHEETS, { useFactory: instanceCachingFactory(() => new KnexApprovedTimesheets(db)) });
    container.register(TIMESHEET_OPTIONS, { useValue: { baseUrl: config.baseUrl } });
    container.register(TIMESHEET_APPROVAL_LISTENERS, { useValue: new TimesheetApprovalListeners() });
    container.registerSingleton(TimesheetService);
    container.register(CLIENT_INVOICE_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexClientInvoiceRepository(db)) });
    container.register(CLIENT_INVOICE_DOCUMENTS, { useValue: new BillingRendererClientInvoices() });
    container.registerSingleton(ClientInvoiceService);
    const placementsOf = (organizationId: string, emails: readonly string[]) =>
      db('hi_placements')
        .select('id')
        .where({ organization_id: organizationId })
        .where((w) => w.whereIn('worker_email', [...emails]).orWhereIn('client_contact_email', [...emails]));
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'timesheets',
          description:
            "Timesheets of a placed worker or decided by a client's contact (shifts, hours, pay, the contact's note), matched by the placement's emails",
          table: 'hi_timesheets',
          where: (q, s) => q.where({ organization_id: s.organizationId }).whereIn('placement_id', placementsOf(s.organizationId, s.emails)),
        }),
      ),
    );
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'client_invoices',
          description:
            "Invoices to a client company (the contact's name and email; each line names a placed worker and their hours), matched by the contact's email",
          table: 'hi_client_invoices',
          where: (q, s) => q.where({ organization_id: s.organizationId }).whereIn('contact_email', [...s.emails]),
        }),
      ),
    );
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'placements',
          description:
            "Placements of a worker at a client company (worker's name and email, the client contact's name and email, rates), matched by either email",
          table: 'hi_placements',
          where: (q, s) =>
            q
              .where({ organization_id: s.organizationId })
              .where((w) => w.whereIn('worker_email', [...s.emails]).orWhereIn('client_contact_email', [...s.emails])),
        }),
      ),
    );
  },
  routers: [
    { name: 'timesheets', create: (container, kit) => kit.build('timesheets', timesheetRoutes(container.resolve(TimesheetService))) },
    {
      name: 'client-invoices',
      create: (container, kit) =>
        kit.build(
          'client-invoices',
          clientInvoiceRoutes(container.resolve(ClientInvoiceService), container.resolve<ClientInvoiceDocuments>(CLIENT_INVOICE_DOCUMENTS)),
        ),
    },
    { name: 'timesheet-review', create: (container, kit) => timesheetReviewRouter(container.resolve(TimesheetService), kit) },
  ],
};
