import type { ExperienceSummary } from '../../profiles/domain/experience-summary';
import type { ImportedCredential } from '../../profiles/domain/profile-snapshot';
import type { WorkHistoryEntry } from '../../profiles/domain/work-history';
import type { AnswerValue } from './answer-validation';
import type { ApplicationContact } from './application-contact';

export type ApplicationStatus = 'submitted';

export interface ProfileApplication {
  id: string;
  organizationId: string;
  listingId: string;
  profileUserId: string;
  status: ApplicationStatus;
  coverLetter: string | null;
  answers: Record<string, AnswerValue>;
  candidateName: string;
  candidateHeadline: string | null;
  importedSkills: string[];
  importedCredentials: ImportedCredential[];
  experienceSummary: ExperienceSummary;
  /** Newest first. */
  workHistory: WorkHistoryEntry[];
  profileUrl: string;
  /** The distribution channel the candidate came through (`sourcing.distribute_jobs`), `sourcing` for an invitation, null when none. */
  source: string | null;
  /** How to reach the candidate (a profile application's `contact`, a board applicant's email and phone); null when none was given. */
  contact: ApplicationContact | null;
  /** On reads: the earlier application to this listing with the same contact email (the same person applied twice), null when none. */
  duplicateOf?: string | null;
  /** The candidate's language, a canonical BCP 47 tag (the widget's), given with a profile application; null when none was given. */
  language?: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

/** What the apply endpoint answers with: the application's id, status and imported profile. */
export type SubmittedApplication = Pick<ProfileApplication, 'id' | 'status' | 'importedSkills' | 'importedCredentials' | 'experienceSummary' | 'profileUrl'>;

export const MAX_COVER_LETTER_LENGTH = 10_000;
