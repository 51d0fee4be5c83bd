/**
 * Sourcing (sourcing.source_candidates): the talent pool of past applicants who consented to
 * be contacted again, its ranked search, and invitations to apply by email whose
 * applications are attributed (docs/sourcing.md). It implements the apply path's
 * ApplicationSourcing port (invitation tokens, the consent given with an application).
 */
import { instanceCachingFactory } from 'tsyringe';
import { CONFIG } from '../../composition/infrastructure';
import { CLOCK, type Clock } from '../../kernel/clock';
import type { Config } from '../../kernel/config';
import { EVENT_PUBLISHER, type EventPublisher } from '../../kernel/events';
import { LOGGER, type Logger } from '../../kernel/logger';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { deriveKey } from '../../platform/security/key-derivation';
import { APPLICATION_SOURCING, type ApplicationSourcing } from '../applications/domain/application-sourcing';
import { APPLICATION_REPOSITORY, type ApplicationRepository } from '../applications/domain/ports';
import { APPLICATION_CREDENTIAL_CHECKER, type ApplicationCredentialChecker } from '../applications/domain/application-credential-check';
import { NOTIFICATION_CONNECTOR, type NotificationConnector } from '../hooks/domain/connectors';
import { ENTITLEMENTS, type Entitlements } from '../licensing/domain/entitlements';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../listings/domain/listing';
import { ORGANIZATION_REPOSITORY, type OrganizationRepository } from '../organizations/domain/ports';
import { candidateStore } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { InvitationTokens } from './domain/invitation-tokens';
import { SOURCE_CANDIDATES, SourcingService } from './domain/sourcing-service';
import { sourcingRoutes } from './http/sourcing-router';
import { sourcingUnsubscribeRouter } from './http/unsubscribe-router';
import { MESSAGE_LINK_KEY, SignedLinks } from '../messages/domain/signed-links';
import { KnexInvitations } from './storage/knex-invitations';
import { KnexTalentPool } from './storage/knex-talent-pool';

export const sourcingModule: PluginModule = {
  name: 'sourcing',
  builtInActions: [SOURCE_CANDIDATES],
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'sourcing_consents',
          table: 'hi_sourcing_consents',
          description: 'Consent to be contacted again about other jobs (sourcing): the email address and location given, when, and its withdrawal',
        }),
      ),
    );
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'sourcing_invitations',
          table: 'hi_sourcing_invitations',
          description: 'Invitations to apply sent to the candidate (listing, when, the email run, the application that followed)',
        }),
      ),
    );
    if (!container.isRegistered(MESSAGE_LINK_KEY)) container.register(MESSAGE_LINK_KEY, { useValue: deriveKey(config.secretKey, 'message-links') });
    const tokens = new InvitationTokens(deriveKey(config.secretKey, 'sourcing-invitations'));
    container.register(SourcingService, {
      useFactory: instanceCachingFactory(
        (c) =>
          new SourcingService({
            pool: new KnexTalentPool(db),
            invitations: new KnexInvitations(db),
            tokens,
            applications: c.resolve<ApplicationRepository>(APPLICATION_REPOSITORY),
            credentialChecks: c.resolve<ApplicationCredentialChecker>(APPLICATION_CREDENTIAL_CHECKER),
            listings: c.resolve<ListingsDirectory>(LISTINGS_DIRECTORY),
            organizationName: async (id) => (await c.resolve<OrganizationRepository>(ORGANIZATION_REPOSITORY).findById(id))?.name ?? 'The organization',
            email: c.resolve<NotificationConnector>(NOTIFICATION_CONNECTOR),
            entitlements: c.resolve<Entitlements>(ENTITLEMENTS),
            events: c.resolve<EventPublisher>(EVENT_PUBLISHER),
            logger: c.resolve<Logger>(LOGGER),
            now: () => c.resolve<Clock>(CLOCK).now(),
            listingUrlTemplate: c.resolve<Config>(CONFIG).jobFeedsListingUrl,
            links: new SignedLinks(c.resolve<Buffer>(MESSAGE_LINK_KEY)),
            baseUrl: config.baseUrl,
          }),
      ),
    });
    container.register<ApplicationSourcing>(APPLICATION_SOURCING, { useFactory: (c) => c.resolve(SourcingService) });
  },
  routers: [
    {
      name: 'sourcing-unsubscribe',
      create: (container, kit) => sourcingUnsubscribeRouter(container.resolve(SourcingService), kit),
    },
    {
      name: 'sourcing',
      create: (container, kit) =>
        kit.build(
          'sourcing',
          sourcingRoutes(container.resolve(SourcingService), () => container.resolve<Clock>(CLOCK).now()),
        ),
    },
  ],
};
