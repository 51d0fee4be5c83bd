/**
 * Submitting a profile application (SPEC 4.1). Checks run cheapest first and in an order
 * that leaks nothing: the caller's binding, the listing (another organization's is 404),
 * whether the organization accepts profile applications (settings and license), the
 * listing's state, the answers, duplicates, the candidate's authorization, and only then
 * the provider (a fresh snapshot, imported on demand when needed). Warm, that is two
 * database round trips: the listing, settings, license and API key come from per-process
 * caches; duplicate, authorization and snapshot are one read; the row and its
 * pipeline-delivery message are one statement.
 */
import { inject, injectable } from 'tsyringe';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '../jobs/outbox';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../listings/listing';
import { notAuthorized, ProfileImporter } from '../profiles/profile-importer';
import { CLOCK, type Clock } from '../shared/clock';
import { conflict, DomainError, forbidden, invalid, notFound } from '../shared/errors';
import { newId } from '../shared/ids';
import { validateAnswers } from './answer-validation';
import { ProfileApplyAvailability } from './profile-apply-availability';
import { MAX_COVER_LETTER_LENGTH, type ProfileApplication } from './application';
import { pipelineDeliveryMessage } from './pipeline-delivery-message';
import { APPLICATION_REPOSITORY, type ApplicationRepository } from './ports';
import { APPLY_CONTEXT_READER, type ApplyContextReader } from './apply-context';

/** Who submits: an organization's server, or a candidate's session from the widget. */
export interface Applicant {
  organizationId: string;
  /** Set for candidate sessions: the (listing, candidate) the session is bound to. */
  candidate?: { listingId: string; profileUserId: string };
}

export interface ApplicationRequest {
  profileUserId: string;
  coverLetter?: string;
  answers?: Record<string, unknown>;
}

export const duplicateApplication = (applicationId: string) =>
  conflict('duplicate_application', 'This candidate has already applied to this listing', { application_id: applicationId });

@injectable()
export class ApplyService {
  constructor(
    @inject(LISTINGS_DIRECTORY) private readonly listings: ListingsDirectory,
    @inject(ProfileApplyAvailability) private readonly availability: ProfileApplyAvailability,
    @inject(ProfileImporter) private readonly importer: ProfileImporter,
    @inject(APPLICATION_REPOSITORY) private readonly applications: ApplicationRepository,
    @inject(APPLY_CONTEXT_READER) private readonly contexts: ApplyContextReader,
    @inject(OUTBOX_NOTIFIER) private readonly outbox: OutboxNotifier,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async submit(applicant: Applicant, listingId: string, request: ApplicationRequest): Promise<ProfileApplication> {
    const { candidate } = applicant;
    if (candidate && (candidate.listingId !== listingId || candidate.profileUserId !== request.profileUserId)) {
      throw forbidden('candidate_session_mismatch', 'This candidate session is bound to another listing or candidate');
    }
    const listing = await this.listings.get(listingId);
    if (!listing || listing.organizationId !== applicant.organizationId) throw notFound('listing', listingId);

    await this.availability.require(applicant.organizationId);

    if (listing.status !== 'open') throw new DomainError('gone', 'listing_closed', 'This listing no longer accepts applications');
    if (request.coverLetter !== undefined && request.coverLetter.length > MAX_COVER_LETTER_LENGTH) {
      throw invalid('parameter_invalid', `cover_letter must be at most ${MAX_COVER_LETTER_LENGTH} characters`, 'cover_letter');
    }
    const answers = validateAnswers(listing.questions, request.answers ?? {});

    // Duplicate, authorization and stored snapshot: one round trip.
    const context = await this.contexts.read(applicant.organizationId, listingId, request.profileUserId);
    if (context.existingApplicationId) throw duplicateApplication(context.existingApplicationId);
    if (!context.authorizedAt) throw notAuthorized();

    const snapshot = await this.importer.freshSnapshotGiven(applicant.organizationId, request.profileUserId, context.authorizedAt, context.snapshot);
    const application: ProfileApplication = {
      id: newId('app'),
      organizationId: applicant.organizationId,
      listingId,
      profileUserId: request.profileUserId,
      status: 'submitted',
      coverLetter: request.coverLetter ?? null,
      answers,
      candidateName: snapshot.name,
      candidateHeadline: snapshot.headline,
      importedSkills: snapshot.skills,
      importedCredentials: snapshot.credentials,
      experienceSummary: snapshot.experienceSummary,
      workHistory: snapshot.workHistory,
      profileUrl: snapshot.profileUrl,
      createdAt: this.clock.now(),
      deliveredAt: null,
    };
    // application.submitted is recorded by the pipeline delivery this message guarantees (its
    // dedupe key keeps it once), so the warm apply stays one write statement: no per-organization
    // event sequence lock on the request path.
    const result = await this.applications.create(application, [pipelineDeliveryMessage(application.id)]);
    if (!result.created) throw duplicateApplication(result.duplicateOf);
    this.outbox.nudge();
    return application;
  }
}
