/**
 * Hands a submitted application to the host's pipeline and announces it on the hook bus.
 * The pipeline port is idempotent on the application id, and `delivered_at` is set only
 * after both steps, so a retry repeats at most the event (at-least-once), never the entry.
 */
import { inject, injectable } from 'tsyringe';
import { inQuestionOrder } from './answer-order';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../../listings/domain/listing';
import { PIPELINE, type Pipeline } from './pipeline';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { notFound } from '../../../kernel/errors';
import type { SubmittedApplication } from './application';
import { APPLICATION_SUBMITTED_EVENT, applicationSubmittedKey, applicationSubmittedPayload } from './application-submitted-event';
import { APPLICATION_REPOSITORY, type ApplicationRepository } from './ports';
import { APPLICATION_CREDENTIAL_CHECKER, type ApplicationCredentialChecker } from './application-credential-check';
import { APPLICANT_DETAILS, type ApplicantDetails, type ApplicantDetailsReader } from './applicant-details';
import { SUBMISSION_FOLLOW_UPS, type SubmissionFollowUps } from './submission-follow-ups';

export { APPLICATION_SUBMITTED_EVENT } from './application-submitted-event';

export function applicationView(application: SubmittedApplication) {
  return {
    application_id: application.id,
    status: application.status,
    imported_skills: application.importedSkills,
    imported_credentials: application.importedCredentials,
    experience_summary: application.experienceSummary,
    profile_url: application.profileUrl,
  };
}

@injectable()
export class PipelineDelivery {
  constructor(
    @inject(APPLICATION_REPOSITORY) private readonly applications: ApplicationRepository,
    @inject(PIPELINE) private readonly pipeline: Pipeline,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LISTINGS_DIRECTORY) private readonly listings: ListingsDirectory,
    @inject(APPLICATION_CREDENTIAL_CHECKER) private readonly credentialChecks: ApplicationCredentialChecker,
    @inject(APPLICANT_DETAILS) private readonly applicantDetails: ApplicantDetailsReader,
    @inject(SUBMISSION_FOLLOW_UPS) private readonly followUps: SubmissionFollowUps,
  ) {}

  /** Returns false when the application was already delivered. */
  async deliver(applicationId: string): Promise<boolean> {
    const application = await this.applications.findById(applicationId);
    if (!application) throw notFound('application', applicationId);
    if (application.deliveredAt) return false;
    const listing = await this.listings.get(application.listingId);
    // The pipeline receives the answers in the listing's question order (the stored object has lost it).
    const answers = Object.fromEntries(inQuestionOrder(application.answers, listing?.questions ?? []));
    // Before the check below, so a background check ordered from the listing's policy shows pending.
    await this.followUps.submitted(application);
    // Checked here, off the apply path: the host and application.submitted receive the same result.
    const credentialCheck = (await this.credentialChecks.checkAll(application.organizationId, [application])).get(application.id);
    // A board applicant's details, or the profile application's contact: one shape.
    const applicant: ApplicantDetails | undefined =
      (await this.applicantDetails.find(application.id)) ?? (application.contact ? { ...application.contact, resume: null } : undefined);
    const file = applicant?.resume?.file;
    await this.pipeline.deliver({
      applicationId: application.id,
      organizationId: application.organizationId,
      listingId: application.listingId,
      profileUserId: application.profileUserId,
      candidateName: application.candidateName,
      status: application.status,
      coverLetter: application.coverLetter ?? undefined,
      answers,
      importedSkills: application.importedSkills,
      importedCredentials: application.importedCredentials,
      experienceSummary: {
        total_years: application.experienceSummary.total_years,
        current_title: application.experienceSummary.current_title ?? '',
        current_company: application.experienceSummary.current_company ?? '',
      },
      workHistory: application.workHistory,
      profileUrl: application.profileUrl,
      ...(application.source ? { source: application.source } : {}),
      submittedAt: application.createdAt,
      ...(credentialCheck ? { credentialCheck } : {}),
      ...(application.duplicateOf ? { duplicateOf: application.duplicateOf } : {}),
      ...(applicant
        ? {
            applicant: {
              email: applicant.email,
              phone: applicant.phone,
              resume: applicant.resume
                ? {
                    text: applicant.resume.text,
                    file: file ? { fileName: file.fileName, contentType: file.contentType, base64: file.data.toString('base64') } : null,
                  }
                : null,
            },
          }
        : {}),
    });
    // Records application.submitted in the event log (once: its dedupe key) and announces it on the
    // host's hook bus. A failure here retries the job; the pipeline delivery above is idempotent.
    await this.events.publish(
      APPLICATION_SUBMITTED_EVENT,
      application.organizationId,
      applicationSubmittedPayload({ ...application, answers }, listing?.externalId ?? null, credentialCheck ?? null, applicant ?? null),
      {
        dedupeKey: applicationSubmittedKey(application.id),
      },
    );
    await this.applications.markDelivered(application.id, this.clock.now());
    return true;
  }
}
