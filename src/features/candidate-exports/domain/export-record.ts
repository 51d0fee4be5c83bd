/**
 * One exported application with the candidate it belongs to: what the organization holds
 * (the imported profile, the application's own fields, and the address the candidate gave
 * when consenting to be contacted again, if any). Read in (candidate, application) order so
 * a candidate's applications arrive together and the HR Open document can group them while
 * streaming.
 */
import type { ExperienceSummary } from '../../profiles/domain/experience-summary';
import type { ImportedCredential } from '../../profiles/domain/profile-snapshot';
import type { WorkHistoryEntry } from '../../profiles/domain/work-history';

export interface ExportRecord {
  applicationId: string;
  listingId: string;
  status: string;
  /** Where the application came from: a distribution channel, `sourcing`, or null. */
  source: string | null;
  appliedAt: Date;
  profileUserId: string;
  candidateName: string;
  candidateHeadline: string | null;
  email: string | null;
  profileUrl: string;
  skills: string[];
  credentials: ImportedCredential[];
  experience: ExperienceSummary;
  workHistory: WorkHistoryEntry[];
}

export const EXPORT_FORMATS = ['csv', 'hr_open_json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportFilters {
  listingId?: string;
  /** The application's pipeline status (today every application is `submitted`). */
  status?: string;
  /** Applications created at or after this instant. */
  since?: Date;
  /** Applications created before this instant (scheduled deliveries end where the next begins). */
  before?: Date;
}

/** Reads an organization's applications in export order, in batches (bounded memory whatever the count). */
export interface ExportSource {
  records(organizationId: string, filters: ExportFilters): AsyncIterable<ExportRecord>;
}

export const EXPORT_SOURCE = Symbol('ExportSource');
