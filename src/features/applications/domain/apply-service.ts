/**
 * Submitting a profile application (SPEC 4.1). Checks run cheapest first and in an order
 * that leaks nothing: the caller's binding, the listing (another organization's is 404),
 * whether the organization accepts profile applications (settings and license), the
 * listing's state, the answers, duplicates, the candidate's authorization, and only then
 * the provider (a fresh snapshot, imported on demand when needed). Warm, that is one
 * database round trip: the listing, settings, license and API key come from per-process
 * caches; the duplicate check, the authorization, the stored snapshot, the row and its
 * pipeline-delivery message are one statement (SnapshotApplications).
 */
import { inject, injectable } from 'tsyringe';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '../../../kernel/outbox';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../../listings/domain/listing';
import { isListingId } from '../../listings/domain/listing-id';
import { notAuthorized, ProfileImporter } from '../../profiles/domain/profile-importer';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { conflict, DomainError, forbidden, invalid, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import { validateAnswers } from './answer-validation';
import { ProfileApplyAvailability } from './profile-apply-availability';
import { MAX_COVER_LETTER_LENGTH, type ProfileApplication, type SubmittedApplication } from './application';
import { pipelineDeliveryMessage } from './pipeline-delivery-message';
import { APPLICATION_REPOSITORY, type ApplicationRepository } from './ports';
import { SNAPSHOT_APPLICATIONS, type ApplicationDraft, type SnapshotApplications } from './snapshot-application';
import { snapshotFreshSince } from '../../profiles/domain/profile-snapshot';
import { APPLICATION_SOURCES, type ApplicationSources } from './application-source';
import { APPLICATION_SOURCING, type ApplicationSourcing, type RecontactConsent } from './application-sourcing';
import { contactEmailRequired, normalizedEmail } from './application-contact';

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
  /** The tracked apply link's `source` token (sourcing.distribute_jobs), or a sourcing invitation's (sourcing.source_candidates). */
  source?: string;
  /** The candidate agreed to be contacted again about other jobs (talent rediscovery). */
  recontact?: RecontactConsent;
  /** How to reach the candidate; required by a listing with a background-check policy (the vendor's invitation goes to the email). */
  contact?: { email: string; phone?: string };
  /** The candidate's language (a BCP 47 tag, canonicalized by the API): messages to them without another language use it. */
  language?: string;
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
    @inject(SNAPSHOT_APPLICATIONS) private readonly snapshotApplications: SnapshotApplications,
    @inject(OUTBOX_NOTIFIER) private readonly outbox: OutboxNotifier,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(APPLICATION_SOURCES) private readonly sources: ApplicationSources,
    @inject(APPLICATION_SOURCING) private readonly sourcing: ApplicationSourcing,
  ) {}

  async submit(applicant: Applicant, listingId: string, request: ApplicationRequest): Promise<SubmittedApplication> {
    const { candidate } = applicant;
    if (candidate && (candidate.listingId !== listingId || candidate.profileUserId !== request.profileUserId)) {
      throw forbidden('candidate_session_mismatch', 'This candidate session is bound to another listing or candidate');
    }
    // An id outside the documented rule never reaches the host's directory: it is no listing.
    if (!isListingId(listingId)) throw notFound('listing');
    const listing = await this.listings.get(listingId);
    if (!listing || listing.organizationId !== applicant.organizationId) throw notFound('listing', listingId);

    await this.availability.require(applicant.organizationId);

    if (listing.status !== 'open') throw new DomainError('gone', 'listing_closed', 'This listing no longer accepts applications');
    if (request.coverLetter !== undefined && request.coverLetter.length > MAX_COVER_LETTER_LENGTH) {
      throw invalid('parameter_invalid', `cover_letter must be at most ${MAX_COVER_LETTER_LENGTH} characters`, 'cover_letter');
    }
    const answers = validateAnswers(listing.questions, request.answers ?? {});
    const draftId = newId('app');
    const invited = request.source !== undefined && this.sourcing.isInvitation(request.source);
    let source: string | null = null;
    if (request.source !== undefined) {
      const channel = invited
        ? await this.sourcing.claimInvitation({
            organizationId: applicant.organizationId,
            listingId,
            profileUserId: request.profileUserId,
            applicationId: draftId,
            token: request.source,
          })
        : this.sources.channelOf(applicant.organizationId, listingId, request.source);
      if (channel === undefined) throw invalid('source_invalid', 'source is not a tracked apply link of this listing', 'source');
      source = channel;
    }
    let created: SubmittedApplication;
    try {
      created = await this.store(applicant, listingId, request, { id: draftId, answers, source });
    } catch (error) {
      // Not created (a duplicate, no authorization, an outage): a claimed invitation stays usable.
      if (invited) await this.sourcing.releaseInvitation(applicant.organizationId, draftId);
      throw error;
    }
    if (invited || request.recontact) {
      const applied = {
        organizationId: applicant.organizationId,
        listingId,
        profileUserId: request.profileUserId,
        applicationId: created.id,
        at: this.clock.now(),
      };
      // The consent keeps the language it was given in: the invitation is written in it.
      const recontact = request.recontact ? { ...request.recontact, language: request.recontact.language ?? request.language ?? null } : undefined;
      await this.sourcing.applied(applied, invited, recontact);
    }
    return created;
  }

  private async store(
    applicant: Applicant,
    listingId: string,
    request: ApplicationRequest,
    fields: { id: string; answers: ApplicationDraft['answers']; source: string | null },
  ): Promise<SubmittedApplication> {
    const draft: ApplicationDraft = {
      id: fields.id,
      organizationId: applicant.organizationId,
      listingId,
      profileUserId: request.profileUserId,
      coverLetter: request.coverLetter ?? null,
      answers: fields.answers,
      source: fields.source,
      contact: request.contact ? { email: normalizedEmail(request.contact.email), phone: request.contact.phone ?? null } : null,
      language: request.language ?? null,
      createdAt: this.clock.now(),
    };
    // application.submitted is recorded by the pipeline delivery this message guarantees (its
    // dedupe key keeps it once), so the application stays one write statement: no
    // per-organization event sequence lock on the request path.
    const messages = [pipelineDeliveryMessage(draft.id)];
    // Warm: duplicate check, authorization, fresh snapshot and the write in one statement.
    const stored = await this.snapshotApplications.createFromStoredSnapshot(draft, snapshotFreshSince(draft.createdAt), messages);
    if (stored.outcome === 'duplicate') throw duplicateApplication(stored.applicationId);
    if (stored.outcome === 'not_authorized') throw notAuthorized();
    if (stored.outcome === 'contact_required') throw contactEmailRequired();
    if (stored.outcome === 'created') {
      this.outbox.nudge();
      return stored.application;
    }
    // Cold: no fresh snapshot yet. Import one (a bounded wait), then write it with the draft.
    const snapshot = await this.importer.freshSnapshotGiven(applicant.organizationId, request.profileUserId, stored.authorizedAt, undefined);
    const application: ProfileApplication = {
      ...draft,
      status: 'submitted',
      candidateName: snapshot.name,
      candidateHeadline: snapshot.headline,
      importedSkills: snapshot.skills,
      importedCredentials: snapshot.credentials,
      experienceSummary: snapshot.experienceSummary,
      workHistory: snapshot.workHistory,
      profileUrl: snapshot.profileUrl,
      deliveredAt: null,
    };
    const result = await this.applications.create(application, messages);
    if (!result.created) throw duplicateApplication(result.duplicateOf);
    this.outbox.nudge();
    return application;
  }
}
