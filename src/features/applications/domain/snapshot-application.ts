/**
 * The warm application as one step: the candidate's stored snapshot becomes the
 * application's profile part inside the store, with the checks that must hold (not applied
 * yet, authorized, snapshot fresh) in the same statement. One database round trip, and the
 * imported profile never travels through the process to be written back. When the
 * snapshot is missing or stale nothing is written and the caller imports one first.
 */
import type { OutboxMessage } from '../../../kernel/outbox';
import type { AnswerValue } from './answer-validation';
import type { ProfileApplication, SubmittedApplication } from './application';

/** The applicant's part of an application; the profile part comes from the snapshot. */
export type ApplicationDraft = Pick<
  ProfileApplication,
  'id' | 'organizationId' | 'listingId' | 'profileUserId' | 'coverLetter' | 'createdAt' | 'source' | 'contact' | 'language'
> & {
  answers: Record<string, AnswerValue>;
};

export type SnapshotApplicationResult =
  | { outcome: 'created'; application: SubmittedApplication }
  | { outcome: 'duplicate'; applicationId: string }
  | { outcome: 'not_authorized' }
  /** No contact email, and the listing orders a background check when an application arrives. */
  | { outcome: 'contact_required' }
  /** Authorized, but no snapshot imported after the authorization and after `freshSince`. */
  | { outcome: 'snapshot_needed'; authorizedAt: Date };

export interface SnapshotApplications {
  /**
   * Writes the application from the stored snapshot, with `messages` in the same statement,
   * when the candidate has not applied, is authorized, the snapshot was imported after both
   * the authorization and `freshSince`, and a contact email is given when the listing has a
   * background-check policy.
   */
  createFromStoredSnapshot(draft: ApplicationDraft, freshSince: Date, messages: readonly OutboxMessage[]): Promise<SnapshotApplicationResult>;
}

export const SNAPSHOT_APPLICATIONS = Symbol('SnapshotApplications');
