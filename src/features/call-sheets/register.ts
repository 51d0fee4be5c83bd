/**
 * Call sheets (notifications.call_sheet_distribution): the `production_day.scheduled`
 * handler, the PDF renderer (the invoices' Noto fonts), the reminder queue, the link pages
 * and the table (crew members' personal data, registered like candidates').
 */
import { instanceCachingFactory } from 'tsyringe';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { deriveKey } from '../../platform/security/key-derivation';
import { invoiceFonts } from '../billing/http/invoice-fonts';
import { CONNECTOR_RESOLVER } from '../connections/register';
import type { ConnectorResolver } from '../connections/domain/connector-resolver';
import { declarationOf } from '../hooks/domain/hook-handler';
import { MESSAGE_LINK_KEY } from '../messages/domain/signed-links';
import { candidateStore } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { CALL_SHEET_DOCUMENTS, CALL_SHEET_OPTIONS, CALL_SHEET_REPOSITORY, SMS_AVAILABILITY, type SmsAvailability } from './domain/call-sheet';
import { CallSheetHandler } from './domain/call-sheet-handler';
import { CallSheets } from './domain/call-sheets';
import { PdfCallSheets } from './documents/call-sheet-pdf';
import { callSheetRouter } from './http/call-sheet-router';
import { CallSheetReminderProcessor } from './jobs/call-sheet-reminder';
import { KnexCallSheetRepository } from './storage/knex-call-sheet-repository';

const declaration = declarationOf(CallSheetHandler);

export const callSheetsModule: PluginModule = {
  name: 'call-sheets',
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    if (!container.isRegistered(MESSAGE_LINK_KEY)) container.register(MESSAGE_LINK_KEY, { useValue: deriveKey(config.secretKey, 'message-links') });
    container.register(CALL_SHEET_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexCallSheetRepository(db)) });
    container.register(CALL_SHEET_DOCUMENTS, { useFactory: instanceCachingFactory(() => new PdfCallSheets(invoiceFonts())) });
    container.register(CALL_SHEET_OPTIONS, { useValue: { baseUrl: config.baseUrl } });
    container.register<SmsAvailability>(SMS_AVAILABILITY, {
      useFactory: (c) => async (organizationId) => (await c.resolve<ConnectorResolver>(CONNECTOR_RESOLVER).availability(organizationId, 'sms')) !== undefined,
    });
    container.registerSingleton(CallSheets);
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'call_sheets',
          description: 'Call sheets sent to a crew member (name, email, phone, language, role, call time, confirmation), matched by the email or phone given',
          table: 'hi_call_sheets',
          where: (q, s) => q.where({ organization_id: s.organizationId }).where((w) => w.whereIn('email', [...s.emails]).orWhereIn('phone', [...s.phones])),
        }),
      ),
    );
  },
  hooks: [
    {
      name: declaration.name,
      hook: declaration.hook,
      action: declaration.action,
      ...(declaration.steps ? { steps: declaration.steps } : {}),
      resolve: (c) => c.resolve(CallSheetHandler),
    },
  ],
  processors: (container) => [container.resolve(CallSheetReminderProcessor)],
  routers: [{ name: 'call-sheets', create: (container, kit) => callSheetRouter(container.resolve(CallSheets), kit) }],
};
