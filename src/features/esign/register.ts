/**
 * E-signature (esign.send_offer, esign.send_agreement): the plugin is the signing service.
 * Templates and envelopes (/v1/esign), the signer's page (/v1/sign), the `offer.created` and
 * `agreement.requested` hook handlers, the expiry and reminder sweeps, the organizations' signing
 * certificates (sealed with the credentials cipher) and the envelopes as candidate data.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { BULLMQ_QUEUES, MANIFEST } from '../../composition/infrastructure';
import type { Manifest } from '../../platform/manifest/manifest';
import { CLOCK, type Clock } from '../../kernel/clock';
import { EVENT_PUBLISHER, type EventPublisher } from '../../kernel/events';
import { LOGGER, type Logger } from '../../kernel/logger';
import type { HookHandlerRegistration, PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import type { BullmqJobQueue } from '../../platform/queue/bullmq-queue';
import { deriveKey } from '../../platform/security/key-derivation';
import { TokenCipher } from '../../platform/security/token-cipher';
import type { ConnectorResolver } from '../connections/domain/connector-resolver';
import { CONNECTOR_RESOLVER } from '../connections/register';
import { NOTIFICATION_CONNECTOR, SMS_CONNECTOR, type NotificationConnector, type SmsConnector } from '../hooks/domain/connectors';
import { HookGate } from '../hooks/domain/hook-gate';
import { declarationOf, type GatedHookHandler } from '../hooks/domain/hook-handler';
import { ORGANIZATION_REPOSITORY, type OrganizationRepository } from '../organizations/domain/ports';
import { candidateStore, noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { DESTINATION_FETCH, DESTINATION_POLICY, type DestinationFetch, type DestinationPolicy } from '../webhooks/domain/ports';
import { PdfEnvelopeDocuments } from './documents/envelope-pdf';
import { HttpTimestampAuthority } from './documents/timestamp-authority-client';
import { ENVELOPE_REPOSITORY, SEND_AGREEMENT_ACTION, SEND_OFFER_ACTION, type EnvelopeRepository } from './domain/envelope';
import { Envelopes } from './domain/envelopes';
import { ESignAgreementHandler, ESignOfferHandler } from './domain/esign-handlers';
import {
  ENVELOPE_DOCUMENTS,
  ESIGN_SETTINGS_REPOSITORY,
  SIGNING_CERTIFICATES,
  TIMESTAMP_AUTHORITY,
  type EnvelopeDocuments,
  type EsignSettingsRepository,
  type SigningCertificates,
  type TimestampAuthority,
} from './domain/ports';
import { SignatureSettings } from './domain/signature-settings';
import { DocumentTemplates, TEMPLATE_REPOSITORY, type TemplateRepository } from './domain/templates';
import { esignPageRouter } from './http/esign-page-router';
import { esignRoutes } from './http/esign-router';
import { EnvelopeExpiryProcessor, scheduleEnvelopeExpiry } from './jobs/envelope-expiry';
import { EnvelopeReminderProcessor, scheduleEnvelopeReminders } from './jobs/envelope-reminders';
import { envelopeCandidateStore } from './storage/envelope-candidate-store';
import { KnexEnvelopeRepository } from './storage/knex-envelope-repository';
import { KnexEsignSettings } from './storage/knex-esign-settings';
import { KnexSigningCertificates } from './storage/knex-signing-certificates';
import { KnexTemplateRepository } from './storage/knex-template-repository';

/** Outside production the operator may run the expiry sweep at a test clock's time. */
const TEST_CLOCKS = Symbol('EsignTestClocks');
const SIGNING_LINK_KEY = Symbol('EsignSigningLinkKey');

const declared = (handler: new (...args: any[]) => GatedHookHandler): HookHandlerRegistration => {
  const { name, hook, action, steps } = declarationOf(handler);
  return { name, hook, action, ...(steps ? { steps } : {}), resolve: (c) => c.resolve<GatedHookHandler>(handler) };
};

export const esignModule: PluginModule = {
  name: 'esign',
  builtInActions: [SEND_OFFER_ACTION, SEND_AGREEMENT_ACTION],
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    registerCandidateData(container, candidateStore(envelopeCandidateStore(db)));
    registerCandidateData(container, noCandidateData('hi_esign_templates', "Organizations' document templates (placeholders, no person's data)"));
    registerCandidateData(container, noCandidateData('hi_esign_certificates', "Organizations' signing certificates (sealed PKCS#12)"));
    registerCandidateData(
      container,
      noCandidateData('hi_esign_settings', "Organizations' signature settings (their time-stamp authority URL and reminder schedule)"),
    );
    container.register(SIGNING_LINK_KEY, { useValue: deriveKey(config.secretKey, 'esign-links') });
    container.register(TEST_CLOCKS, { useValue: config.env !== 'production' });
    container.register<EnvelopeRepository>(ENVELOPE_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexEnvelopeRepository(db)) });
    container.register<TemplateRepository>(TEMPLATE_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexTemplateRepository(db)) });
    container.register<TimestampAuthority>(TIMESTAMP_AUTHORITY, {
      useFactory: instanceCachingFactory(
        (c) =>
          new HttpTimestampAuthority(
            c.resolve<DestinationPolicy>(DESTINATION_POLICY),
            `${c.resolve<Manifest>(MANIFEST).name} e-signature`,
            c.resolve<DestinationFetch>(DESTINATION_FETCH),
          ),
      ),
    });
    container.register<EsignSettingsRepository>(ESIGN_SETTINGS_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexEsignSettings(db)) });
    container.register(SignatureSettings, {
      useFactory: instanceCachingFactory(
        (c) =>
          new SignatureSettings(
            c.resolve<EsignSettingsRepository>(ESIGN_SETTINGS_REPOSITORY),
            c.resolve<DestinationPolicy>(DESTINATION_POLICY),
            c.resolve<TimestampAuthority>(TIMESTAMP_AUTHORITY),
            () => c.resolve<Clock>(CLOCK).now(),
          ),
      ),
    });
    container.register<EnvelopeDocuments>(ENVELOPE_DOCUMENTS, {
      useFactory: instanceCachingFactory((c) => new PdfEnvelopeDocuments(c.resolve<TimestampAuthority>(TIMESTAMP_AUTHORITY))),
    });
    container.register<SigningCertificates>(SIGNING_CERTIFICATES, {
      useFactory: instanceCachingFactory(
        (c) => new KnexSigningCertificates(db, new TokenCipher(deriveKey(config.secretKey, 'esign-certificate-encryption')), c.resolve<Clock>(CLOCK)),
      ),
    });
    container.register(DocumentTemplates, {
      useFactory: instanceCachingFactory((c) => new DocumentTemplates(c.resolve<TemplateRepository>(TEMPLATE_REPOSITORY), () => c.resolve<Clock>(CLOCK).now())),
    });
    container.register(Envelopes, {
      useFactory: instanceCachingFactory((c) => {
        const resolver = c.resolve<ConnectorResolver>(CONNECTOR_RESOLVER);
        const gate = c.resolve(HookGate);
        const organizations = c.resolve<OrganizationRepository>(ORGANIZATION_REPOSITORY);
        const clock = c.resolve<Clock>(CLOCK);
        return new Envelopes(
          c.resolve<EnvelopeRepository>(ENVELOPE_REPOSITORY),
          c.resolve(DocumentTemplates),
          c.resolve<EnvelopeDocuments>(ENVELOPE_DOCUMENTS),
          c.resolve<SigningCertificates>(SIGNING_CERTIFICATES),
          {
            email: c.resolve<NotificationConnector>(NOTIFICATION_CONNECTOR),
            sms: c.resolve<SmsConnector>(SMS_CONNECTOR),
            smsAvailable: async (organizationId) => (await resolver.availability(organizationId, 'sms')) !== undefined,
            licensed: async (organizationId, action) => gate.allows(organizationId, action),
            organizationName: async (organizationId) => (await organizations.findById(organizationId))?.name ?? organizationId,
            timestampAuthorityUrl: async (organizationId) => (await c.resolve(SignatureSettings).get(organizationId)).timestampAuthorityUrl,
            reminderSettings: async (organizationId) => (await c.resolve(SignatureSettings).get(organizationId)).reminders,
          },
          c.resolve<EventPublisher>(EVENT_PUBLISHER),
          c.resolve<Buffer>(SIGNING_LINK_KEY),
          { baseUrl: config.baseUrl },
          () => clock.now(),
          c.resolve<Logger>(LOGGER),
        );
      }),
    });
    container.register(EnvelopeExpiryProcessor, { useFactory: instanceCachingFactory((c) => new EnvelopeExpiryProcessor(c.resolve(Envelopes))) });
    container.register(EnvelopeReminderProcessor, { useFactory: instanceCachingFactory((c) => new EnvelopeReminderProcessor(c.resolve(Envelopes))) });
  },
  hooks: [declared(ESignOfferHandler), declared(ESignAgreementHandler)],
  routers: [
    {
      name: 'esign',
      create: (container, kit) =>
        kit.build(
          'esign',
          esignRoutes({
            envelopes: container.resolve(Envelopes),
            templates: container.resolve(DocumentTemplates),
            certificates: container.resolve<SigningCertificates>(SIGNING_CERTIFICATES),
            settings: container.resolve(SignatureSettings),
            testClocks: container.resolve<boolean>(TEST_CLOCKS),
          }),
        ),
    },
    { name: 'esign-pages', create: (container, kit) => esignPageRouter(container.resolve(Envelopes), kit) },
  ],
  processors: (container: DependencyContainer) => [container.resolve(EnvelopeExpiryProcessor), container.resolve(EnvelopeReminderProcessor)],
  async start(container, { logger }) {
    const bullmq = container.isRegistered(BULLMQ_QUEUES) ? container.resolve<BullmqJobQueue>(BULLMQ_QUEUES) : undefined;
    const stopExpiry = await scheduleEnvelopeExpiry(container.resolve(EnvelopeExpiryProcessor), bullmq, logger);
    const stopReminders = await scheduleEnvelopeReminders(container.resolve(EnvelopeReminderProcessor), bullmq, logger);
    return async () => {
      await stopReminders();
      await stopExpiry();
    };
  },
};
