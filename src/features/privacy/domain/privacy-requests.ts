/** Data-rights requests (exports, erasures) and legal holds, and the storage port that keeps them. */
import type { OutboxMessage } from '../../../kernel/outbox';
import type { CandidateSubject } from './candidate-data';
import type { ExportDocument } from './export-document';

export const PRIVACY_QUEUE = 'candidate-privacy';

export type ExportStatus = 'pending' | 'succeeded' | 'failed';

export interface CandidateExport {
  id: string;
  subject: CandidateSubject;
  status: ExportStatus;
  document: ExportDocument | null;
  failureReason: string | null;
  createdAt: Date;
  completedAt: Date | null;
  expiresAt: Date;
}

export type ErasureStatus = 'pending' | 'succeeded';

/** `request`: the organization asked (for the candidate); `retention`: the retention pass found the data due. */
export type ErasureReason = 'request' | 'retention';

export interface CandidateErasure {
  id: string;
  organizationId: string;
  /** HMAC of the candidate id: what remains of the subject once the erasure is done. */
  subjectDigest: string;
  /** The subject while the erasure runs; null once it has succeeded. */
  subject: CandidateSubject | null;
  reason: ErasureReason;
  status: ErasureStatus;
  /** Store name -> rows erased, for the stores already done. */
  progress: Record<string, number>;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

export interface LegalHold {
  id: string;
  organizationId: string;
  profileUserId: string;
  reason: string;
  createdAt: Date;
  releasedAt: Date | null;
}

export interface PrivacyRequestRepository {
  createExport(record: CandidateExport, messages: readonly OutboxMessage[]): Promise<void>;
  findExport(organizationId: string, exportId: string): Promise<CandidateExport | undefined>;
  /** Any organization: the signed download link names the export, and the signature scopes it. */
  findExportById(exportId: string): Promise<CandidateExport | undefined>;
  settleExport(exportId: string, outcome: { document: ExportDocument } | { failureReason: string }, at: Date): Promise<void>;

  /** Inserts the erasure, or returns the pending one of the same subject (a second request joins it). */
  createErasure(record: CandidateErasure, messages: (stored: CandidateErasure) => readonly OutboxMessage[]): Promise<CandidateErasure>;
  findErasure(organizationId: string, erasureId: string): Promise<CandidateErasure | undefined>;
  findErasureById(erasureId: string): Promise<CandidateErasure | undefined>;
  recordErasureProgress(erasureId: string, store: string, erased: number): Promise<void>;
  recordErasureFailure(erasureId: string, error: string): Promise<void>;
  /** Marks it succeeded and forgets the subject, with the outbox messages (the candidate.erased event) in one transaction. */
  completeErasure(erasureId: string, at: Date, messages: readonly OutboxMessage[]): Promise<void>;
  pendingErasures(olderThan: Date): Promise<CandidateErasure[]>;

  placeHold(hold: LegalHold): Promise<void>;
  releaseHold(organizationId: string, profileUserId: string, holdId: string, at: Date): Promise<LegalHold | undefined>;
  listHolds(organizationId: string, profileUserId: string): Promise<LegalHold[]>;
  activeHold(organizationId: string, profileUserId: string): Promise<LegalHold | undefined>;
}

export const PRIVACY_REQUEST_REPOSITORY = Symbol('PrivacyRequestRepository');
