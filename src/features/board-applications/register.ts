/**
 * Board applications (`job_boards.import_applications`): the organization's signing secret and
 * the signed endpoint boards post applications to; applications enter the profile
 * applications' table and pipeline (docs/job-import.md, Board applications). The details
 * only a board application has (contact details, resume, the board's questions) are a
 * candidate data store matched by the derived candidate id or the email.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { CONFIG, MANIFEST } from '../../composition/infrastructure';
import { CLOCK, type Clock } from '../../kernel/clock';
import type { Config } from '../../kernel/config';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '../../kernel/outbox';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { jsonBody } from '../../platform/http/body';
import { buildRouter } from '../../platform/http/route';
import type { Manifest } from '../../platform/manifest/manifest';
import { deriveKey } from '../../platform/security/key-derivation';
import { TokenCipher } from '../../platform/security/token-cipher';
import { APPLICANT_DETAILS, type ApplicantDetailsReader } from '../applications/domain/applicant-details';
import { ENTITLEMENTS, type Entitlements } from '../licensing/domain/entitlements';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../listings/domain/listing';
import { LISTINGS_MANAGER, type ListingsManager } from '../listings/domain/listing-management';
import { candidateStore, noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import {
  BOARD_APPLICATION_WRITER,
  BOARD_SECRET_STORE,
  BOARD_SIGNATURE_VERIFIER,
  IMPORT_APPLICATIONS,
  MAX_BOARD_BODY_BYTES,
  type BoardApplicationWriter,
  type BoardSecretStore,
  type BoardSignatureVerifier,
} from './domain/board-application';
import { BoardApplications } from './domain/board-applications';
import { boardApplicationRoutes, RECEIVE_OPERATION } from './http/board-applications-router';
import { KnexApplicantDetails } from './storage/knex-applicant-details';
import { KnexBoardApplicationWriter } from './storage/knex-board-application-writer';
import { KnexBoardSecretStore } from './storage/knex-board-secret-store';
import { StandardWebhooksVerifier } from './storage/standard-webhooks-verifier';

function boardApplications(c: DependencyContainer): BoardApplications {
  return new BoardApplications({
    secrets: c.resolve<BoardSecretStore>(BOARD_SECRET_STORE),
    verifier: c.resolve<BoardSignatureVerifier>(BOARD_SIGNATURE_VERIFIER),
    writer: c.resolve<BoardApplicationWriter>(BOARD_APPLICATION_WRITER),
    entitlements: c.resolve<Entitlements>(ENTITLEMENTS),
    listings: c.resolve<ListingsDirectory>(LISTINGS_DIRECTORY),
    manager: c.isRegistered(LISTINGS_MANAGER) ? c.resolve<ListingsManager>(LISTINGS_MANAGER) : undefined,
    outbox: c.resolve<OutboxNotifier>(OUTBOX_NOTIFIER),
    now: () => c.resolve<Clock>(CLOCK).now(),
  });
}

export const boardApplicationsModule: PluginModule = {
  name: 'board-applications',
  builtInActions: [IMPORT_APPLICATIONS],
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    const cipher = new TokenCipher(deriveKey(config.secretKey, 'board-application-secrets'));
    container.register<BoardSecretStore>(BOARD_SECRET_STORE, { useFactory: instanceCachingFactory(() => new KnexBoardSecretStore(db, cipher)) });
    container.register<BoardSignatureVerifier>(BOARD_SIGNATURE_VERIFIER, { useValue: new StandardWebhooksVerifier() });
    container.register<BoardApplicationWriter>(BOARD_APPLICATION_WRITER, { useFactory: instanceCachingFactory(() => new KnexBoardApplicationWriter(db)) });
    container.register(BoardApplications, { useFactory: instanceCachingFactory(boardApplications) });
    // The pipeline delivery hands the host (and application.submitted) what the board sent beside the application.
    container.register<ApplicantDetailsReader>(APPLICANT_DETAILS, { useFactory: instanceCachingFactory(() => new KnexApplicantDetails(db)) });
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'board_applications',
          description:
            "What a job board sent with an application: the applicant's email and phone, the resume (text and file) and the board's questions and answers; matched by the candidate id or the email",
          table: 'hi_board_applications',
          where: (q, s) =>
            q.where({ organization_id: s.organizationId }).where((w) =>
              w.where({ profile_user_id: s.profileUserId }).orWhereIn(
                'email',
                [...s.emails].map((e) => e.trim().toLowerCase()),
              ),
            ),
        }),
      ),
    );
    registerCandidateData(container, noCandidateData('hi_board_secrets', "Organizations' board signing secrets (encrypted)"));
    registerCandidateData(
      container,
      noCandidateData('hi_board_deliveries', 'Board delivery ids already received (replay protection): ids, body hashes and application ids only'),
    );
  },
  routers: [
    {
      name: 'board-applications',
      create: (container, kit) => {
        const config = container.resolve<Config>(CONFIG);
        const mountPath = container.resolve<Manifest>(MANIFEST).routers.find((r) => r.name === 'board-applications')?.mountPath ?? '/v1/board-applications';
        // A board application carries a base64 resume: its own body limit (not the API's 64 KiB), keeping the raw bytes for the signature.
        const boardBody = jsonBody(MAX_BOARD_BODY_BYTES);
        const policy = {
          ...kit.policy,
          guards: (route: Parameters<typeof kit.policy.guards>[0]) =>
            route.operationId === RECEIVE_OPERATION ? [...kit.policy.guards({ ...route, method: 'get' }), ...boardBody] : kit.policy.guards(route),
        };
        const endpointUrl = (organizationId: string) => `${config.baseUrl}${mountPath}/${encodeURIComponent(organizationId)}/{board}`;
        return buildRouter('board-applications', boardApplicationRoutes(container.resolve(BoardApplications), endpointUrl), policy);
      },
    },
  ],
};
