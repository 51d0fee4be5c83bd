/**
 * job_boards.import_applications: boards post applications to a signed endpoint per
 * organization. Checks run in an order that leaks nothing: the organization's secret (none:
 * 404), the signature and its timestamp (Standard Webhooks: 400), the license (403), the
 * delivery id (a replay answers what the first delivery got), then the application itself.
 * It enters the same pipeline as profile applications (hi_profile_applications, the
 * pipeline-delivery job, application.submitted) with the board as its `source`, once per
 * person (their email) and listing: a profile application to the listing with the same
 * contact email makes the delivery a duplicate of it.
 */
import { createHash } from 'node:crypto';
import type { ProfileApplication } from '../../applications/domain/application';
import { pipelineDeliveryMessage } from '../../applications/domain/pipeline-delivery-message';
import { normalizedEmail } from '../../applications/domain/application-contact';
import type { Entitlements } from '../../licensing/domain/entitlements';
import type { Listing, ListingsDirectory } from '../../listings/domain/listing';
import { isListingId } from '../../listings/domain/listing-id';
import type { ListingsManager } from '../../listings/domain/listing-management';
import { profileUserIdFor } from '../../profiles/domain/profile-user-id';
import { conflict, DomainError, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import type { OutboxNotifier } from '../../../kernel/outbox';
import {
  DELIVERY_MEMORY_MS,
  IMPORT_APPLICATIONS,
  MAX_RESUME_BYTES,
  PREVIOUS_SECRET_GRACE_MS,
  type BoardApplicationInput,
  type BoardApplicationWriter,
  type BoardSecret,
  type BoardSecretStore,
  type BoardSignatureVerifier,
} from './board-application';

/** Board applicants have no profile provider: their id is derived from the email, so one person is one candidate per organization. */
export const BOARD_APPLICANT_ISSUER = 'job-boards';
export const boardApplicantId = (email: string) => profileUserIdFor(BOARD_APPLICANT_ISSUER, normalizedEmail(email));

export interface BoardApplicationsDeps {
  secrets: BoardSecretStore;
  verifier: BoardSignatureVerifier;
  writer: BoardApplicationWriter;
  entitlements: Entitlements;
  listings: ListingsDirectory;
  manager: ListingsManager | undefined;
  outbox: OutboxNotifier;
  now: () => Date;
}

export interface Received {
  applicationId: string;
  profileUserId: string;
  /** true when this delivery created the application; false for a replay or the same person again. */
  created: boolean;
  duplicate: boolean;
}

export class BoardApplications {
  constructor(private readonly deps: BoardApplicationsDeps) {}

  /** Creates the organization's secret or rotates it; the answer is the only time it is shown. */
  async rotateSecret(organizationId: string): Promise<BoardSecret> {
    const now = this.deps.now();
    return this.deps.secrets.put(organizationId, newId('bsec'), this.deps.verifier.newSecret(), now, new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS));
  }

  async secretInfo(organizationId: string): Promise<BoardSecret> {
    const secret = await this.deps.secrets.find(organizationId);
    if (!secret) throw notFound('board_secret');
    return secret;
  }

  /** Step 1, before the body is read as an application: the signature over the exact bytes. Answers the delivery id. */
  async verify(organizationId: string, body: Buffer, headers: Record<string, string | undefined>): Promise<string> {
    const secret = await this.deps.secrets.find(organizationId);
    // No secret, no endpoint: an organization that set none (or does not exist) looks the same.
    if (!secret) throw notFound('board_endpoint', organizationId);
    const secrets = [secret.secret, ...(secret.previous && secret.previous.validUntil > this.deps.now() ? [secret.previous.secret] : [])];
    const deliveryId = this.deps.verifier.verify(secrets, body, headers);
    await this.deps.entitlements.requireActive(organizationId, IMPORT_APPLICATIONS);
    return deliveryId;
  }

  /** Step 2: the verified, parsed application enters the pipeline (once per delivery, once per person and listing). */
  async receive(organizationId: string, board: string, deliveryId: string, body: Buffer, input: BoardApplicationInput): Promise<Received> {
    const file = input.resume?.file ?? null;
    if (file && file.data.byteLength > MAX_RESUME_BYTES) {
      throw new DomainError('too_large', 'resume_too_large', `The resume file is larger than ${MAX_RESUME_BYTES} bytes`);
    }
    const listing = await this.listingFor(organizationId, input.jobReference);
    if (listing.status !== 'open') throw new DomainError('gone', 'listing_closed', 'This listing no longer accepts applications');
    const now = this.deps.now();
    const profileUserId = boardApplicantId(input.email);
    const application: ProfileApplication = {
      id: newId('app'),
      organizationId,
      listingId: listing.id,
      profileUserId,
      status: 'submitted',
      coverLetter: input.coverLetter,
      answers: Object.fromEntries(input.questions.map((q) => [q.id, q.answer])),
      candidateName: input.name,
      candidateHeadline: null,
      importedSkills: [],
      importedCredentials: [],
      experienceSummary: { total_years: 0, current_title: null, current_company: null },
      workHistory: [],
      profileUrl: '',
      source: board,
      contact: { email: normalizedEmail(input.email), phone: input.phone },
      createdAt: now,
      deliveredAt: null,
    };
    const stored = await this.deps.writer.store(
      { organizationId, deliveryId, bodySha256: createHash('sha256').update(body).digest('hex'), receivedAt: now },
      application,
      {
        applicationId: application.id,
        organizationId,
        profileUserId,
        board,
        boardApplicationId: input.boardApplicationId,
        email: normalizedEmail(input.email),
        phone: input.phone,
        resumeText: input.resume?.text ?? null,
        resumeFile: file,
        questions: input.questions,
        createdAt: now,
      },
      [pipelineDeliveryMessage(application.id)],
    );
    if (stored.outcome === 'replayed' && !stored.sameBody) {
      throw conflict('webhook_id_reused', 'This webhook-id was already received with another body: each delivery needs its own id');
    }
    if (stored.outcome === 'created') {
      this.deps.outbox.nudge();
      // Housekeeping on the way: ids older than any accepted timestamp are no longer needed.
      await this.deps.writer.forgetDeliveries(organizationId, new Date(now.getTime() - DELIVERY_MEMORY_MS));
    }
    return { applicationId: stored.applicationId, profileUserId, created: stored.outcome === 'created', duplicate: stored.outcome === 'duplicate' };
  }

  private async listingFor(organizationId: string, reference: string): Promise<Listing> {
    if (isListingId(reference)) {
      const listing = await this.deps.listings.get(reference);
      if (listing && listing.organizationId === organizationId) return listing;
    }
    const byExternalId = this.deps.manager ? (await this.deps.manager.list(organizationId, { limit: 1, externalId: reference })).data[0] : undefined;
    if (!byExternalId) throw notFound('listing', reference);
    return byExternalId;
  }
}
