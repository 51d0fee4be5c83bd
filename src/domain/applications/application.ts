import type { ExperienceSummary } from '../profiles/experience-summary';
import type { ImportedCredential } from '../profiles/profile-snapshot';
import type { AnswerValue } from './answer-validation';

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
  profileUrl: string;
  createdAt: Date;
  deliveredAt: Date | null;
}

export const MAX_COVER_LETTER_LENGTH = 10_000;
