/**
 * `application.submitted`: the whole application, so a receiver (webhooks, the events
 * API, the host's hook bus) needs no second call. The application's outbox row guarantees
 * its pipeline delivery, which records this event in the event log (once: the dedupe key)
 * and announces it on the host's bus.
 */
import type { ProfileApplication } from './application';
import type { ApplicantDetails } from './applicant-details';
import type { ApplicationCredentialCheck } from './application-credential-check';

export const APPLICATION_SUBMITTED_EVENT = 'application.submitted';

export const applicationSubmittedKey = (applicationId: string) => `${APPLICATION_SUBMITTED_EVENT}:${applicationId}`;

export function applicationSubmittedPayload(
  application: ProfileApplication,
  listingExternalId: string | null,
  credentialCheck: ApplicationCredentialCheck | null = null,
  applicant: ApplicantDetails | null = null,
) {
  return {
    application_id: application.id,
    status: application.status,
    listing_id: application.listingId,
    listing_external_id: listingExternalId,
    profile_user_id: application.profileUserId,
    candidate_name: application.candidateName,
    candidate_headline: application.candidateHeadline,
    cover_letter: application.coverLetter,
    answers: application.answers,
    imported_skills: application.importedSkills,
    imported_credentials: application.importedCredentials,
    experience_summary: application.experienceSummary,
    work_history: application.workHistory,
    profile_url: application.profileUrl,
    source: application.source,
    submitted_at: application.createdAt.toISOString(),
    credential_check: credentialCheck,
    // The earlier application to this listing with the same contact email (the same person), for the receiver to merge.
    duplicate_of: application.duplicateOf ?? null,
    // The language the candidate applied in (a BCP 47 tag), for the host's own messages to them; null when none was given.
    language: application.language ?? null,
    // How to reach the candidate (a profile application's contact or a board applicant's): the contact only (a resume goes to the pipeline, not into events).
    applicant: applicant ? { email: applicant.email, phone: applicant.phone, has_resume: applicant.resume !== null } : null,
  };
}
