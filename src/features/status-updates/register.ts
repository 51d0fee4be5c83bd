/**
 * Status updates (notifications.status_update): the `application.stage_changed` handler,
 * its tables (candidate data: the recipient's name and address) and the unsubscribe pages.
 */
import { instanceCachingFactory } from 'tsyringe';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { deriveKey } from '../../platform/security/key-derivation';
import { MESSAGE_LINK_KEY } from '../messages/domain/signed-links';
import { ORGANIZATION_REPOSITORY, type OrganizationRepository } from '../organizations/domain/ports';
import { candidateStore } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { declarationOf } from '../hooks/domain/hook-handler';
import { STATUS_UPDATE_OPTIONS, STATUS_UPDATE_REPOSITORY } from './domain/status-update';
import { StatusUpdateHandler } from './domain/status-update-handler';
import { StatusUpdates } from './domain/status-updates';
import { unsubscribeRouter } from './http/unsubscribe-router';
import { KnexStatusUpdateRepository } from './storage/knex-status-update-repository';

const declaration = declarationOf(StatusUpdateHandler);

export const statusUpdatesModule: PluginModule = {
  name: 'status-updates',
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    if (!container.isRegistered(MESSAGE_LINK_KEY)) container.register(MESSAGE_LINK_KEY, { useValue: deriveKey(config.secretKey, 'message-links') });
    container.register(STATUS_UPDATE_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexStatusUpdateRepository(db)) });
    container.register(STATUS_UPDATE_OPTIONS, { useValue: { baseUrl: config.baseUrl } });
    container.registerSingleton(StatusUpdates);
    const byAddress = (table: string, column: string) =>
      tableStore(db, {
        name: table === 'hi_status_updates' ? 'status_updates' : 'message_unsubscribes',
        description:
          table === 'hi_status_updates'
            ? 'Status update emails sent to the candidate: name, address, language, stage and the run that sent it'
            : 'Addresses that unsubscribed from status updates (erasure removes the opt-out with the address)',
        table,
        where: (q, s) =>
          q.where({ organization_id: s.organizationId }).whereIn(
            column,
            s.emails.map((e) => e.toLowerCase()),
          ),
      });
    registerCandidateData(
      container,
      candidateStore(byAddress('hi_status_updates', 'recipient_email')),
      candidateStore(byAddress('hi_message_unsubscribes', 'email')),
    );
  },
  hooks: [
    {
      name: declaration.name,
      hook: declaration.hook,
      action: declaration.action,
      ...(declaration.steps ? { steps: declaration.steps } : {}),
      resolve: (c) => c.resolve(StatusUpdateHandler),
    },
  ],
  routers: [
    {
      name: 'messages',
      create: (container, kit) => unsubscribeRouter(container.resolve(StatusUpdates), container.resolve<OrganizationRepository>(ORGANIZATION_REPOSITORY), kit),
    },
  ],
};
