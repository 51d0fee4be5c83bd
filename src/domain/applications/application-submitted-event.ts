/**
 * `application.submitted`: the whole application, so a receiver (webhooks, the events
 * API, the host's hook bus) needs no second call. Recorded in the same transaction as the
 * application; the pipeline delivery later announces the same event on the host's bus.
 */
import { eventMessage, type OutboxMessage } from '../jobs/outbox';
import type { ProfileApplication } from './application';

export const APPLICATION_SUBMITTED_EVENT = 'application.submitted';

export const applicationSubmittedKey = (applicationId: string) => `${APPLICATION_SUBMITTED_EVENT}:${applicationId}`;

export function applicationSubmittedPayload(application: ProfileApplication, listingExternalId: string | null) {
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
    submitted_at: application.createdAt.toISOString(),
  };
}

export function applicationSubmittedMessage(application: ProfileApplication, listingExternalId: string | null): OutboxMessage {
  return eventMessage({
    organizationId: application.organizationId,
    type: APPLICATION_SUBMITTED_EVENT,
    data: applicationSubmittedPayload(application, listingExternalId),
    dedupeKey: applicationSubmittedKey(application.id),
  });
}
