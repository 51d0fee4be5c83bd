/**
 * Credential documents with human review: the fallback source of the credential checks
 * (a document a reviewer approved meets its requirement until the expiry they read on it).
 */
import { instanceCachingFactory } from 'tsyringe';
import type { PluginModule } from '../../platform/composition/plugin-module';
import { CLOCK, type Clock } from '../../kernel/clock';
import { deriveKey } from '../../platform/security/key-derivation';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { buildRouter } from '../../platform/http/route';
import { withDocumentUploadBody } from './http/document-upload-policy';
import { ApplicationReader } from '../applications/domain/application-reader';
import { LISTING_REQUIREMENTS_STORE, type ListingRequirementsStore } from '../listings/domain/credential-requirements';
import { registerCandidateData } from '../privacy/register';
import { candidateStore } from '../privacy/domain/candidate-data';
import { BLOB_STORE, type BlobStore } from './domain/blob-store';
import { CREDENTIAL_DOCUMENT_REPOSITORY, type ApplicationSubject, type CredentialDocumentRepository } from './domain/credential-document';
import { CredentialDocumentService, type ApplicationRequirementsLookup } from './domain/credential-document-service';
import { credentialDocumentRoutes, UPLOAD_OPERATION } from './http/credential-documents-router';
import { EncryptedDiskBlobStore } from './storage/encrypted-disk-blob-store';
import { KnexReviewedDocuments } from './storage/knex-reviewed-documents';
import { credentialDocumentsData } from './storage/documents-candidate-data';
import { ComplianceService } from '../compliance/domain/compliance-service';

const DOCUMENT_MAX_BYTES = Symbol('CredentialDocumentMaxBytes');

export const credentialDocumentsModule: PluginModule = {
  name: 'credential-documents',
  register(container, { config }) {
    const blobs = new EncryptedDiskBlobStore(config.credentialDocuments.dir, deriveKey(config.secretKey, 'credential-document-encryption'));
    container.register<BlobStore>(BLOB_STORE, { useValue: blobs });
    container.register(DOCUMENT_MAX_BYTES, { useValue: config.credentialDocuments.maxBytes });
    registerCandidateData(container, candidateStore(credentialDocumentsData(container.resolve<Database>(DATABASE), blobs)));
    container.register<CredentialDocumentRepository>(CREDENTIAL_DOCUMENT_REPOSITORY, {
      useFactory: instanceCachingFactory(
        (c) =>
          new KnexReviewedDocuments<ApplicationSubject>(c.resolve<Database>(DATABASE), 'hi_credential_documents', {
            applicationId: 'application_id',
            listingId: 'listing_id',
            profileUserId: 'profile_user_id',
          }),
      ),
    });
    container.register(CredentialDocumentService, {
      useFactory: instanceCachingFactory((c) => {
        const applications = c.resolve(ApplicationReader);
        const requirements = c.resolve<ListingRequirementsStore>(LISTING_REQUIREMENTS_STORE);
        const lookup: ApplicationRequirementsLookup = {
          async find(organizationId, applicationId) {
            const application = await applications.get(organizationId, applicationId).catch(() => undefined);
            if (!application) return undefined;
            return {
              listingId: application.listingId,
              profileUserId: application.profileUserId,
              requirements: await requirements.get(organizationId, application.listingId),
            };
          },
        };
        return new CredentialDocumentService(
          c.resolve<CredentialDocumentRepository>(CREDENTIAL_DOCUMENT_REPOSITORY),
          c.resolve<BlobStore>(BLOB_STORE),
          lookup,
          config.credentialDocuments.maxBytes,
          () => c.resolve<Clock>(CLOCK).now(),
          // From now on its expiry is tracked (reminders, credential.expiring/expired, GET /v1/compliance);
          // the reminder goes to the email the candidate gave with the application, when they gave one, in their language.
          async (d) => {
            if (!d.expiresAt) return;
            const application = await applications.get(d.organizationId, d.applicationId).catch(() => undefined);
            const holder = application?.contact
              ? { name: application.candidateName, email: application.contact.email, language: application.language ?? null }
              : undefined;
            await c.resolve(ComplianceService).record({
              ...(holder ? { holder } : {}),
              organizationId: d.organizationId,
              profileUserId: d.profileUserId,
              listingId: d.listingId,
              requirementKey: d.requirementKey,
              credentialType: d.credentialType,
              source: 'document_review',
              sourceId: d.id,
              expiresAt: d.expiresAt,
            });
          },
        );
      }),
    });
  },
  routers: [
    {
      name: 'credential-documents',
      create: (container, kit) => {
        const maxBytes = container.resolve<number>(DOCUMENT_MAX_BYTES);
        return buildRouter(
          'credential-documents',
          credentialDocumentRoutes(container.resolve(CredentialDocumentService), maxBytes),
          withDocumentUploadBody(kit.policy, UPLOAD_OPERATION, maxBytes),
        );
      },
    },
  ],
};
