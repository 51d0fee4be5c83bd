/**
 * The candidate data registry's contract. Every store that holds a candidate's data
 * registers one CandidateDataStore; every other table is declared as holding none, with a
 * reason. Export, erasure and retention walk the registry, so a store that registers is
 * covered by all three, and the completeness test fails for a table that did neither.
 */

/** Who a request is about: a candidate, as one organization knows them. */
export interface CandidateSubject {
  organizationId: string;
  /** The profile provider's id of the candidate (`usr_…`). */
  profileUserId: string;
  /**
   * Contact details the host knows the candidate by (hooks carry a host-side candidate:
   * name, email, phone, not the profile id): stores filled from hooks match on these.
   */
  emails: readonly string[];
  phones: readonly string[];
}

export interface ErasureOutcome {
  /** Rows deleted or irreversibly anonymized. */
  erased: number;
}

export interface CandidateDataStore {
  /** Stable, snake_case: the key of this store's section in an export and in an erasure's progress. */
  name: string;
  /** One sentence for the export's completeness list and docs/privacy.md. */
  description: string;
  /** The tables this store covers (the completeness test checks every table is covered or declared free). */
  tables: readonly string[];
  /** Everything this store holds about the subject, as plain JSON records (secrets left out). */
  export(subject: CandidateSubject): Promise<Record<string, unknown>[]>;
  /** Deletes or anonymizes the subject's rows. Must be idempotent: a resumed erasure runs it again. */
  erase(subject: CandidateSubject): Promise<ErasureOutcome>;
  /**
   * Runs before `erase` with the rows still there (revoking tokens at the provider, say).
   * Idempotent too; a failure stops the erasure, which resumes here.
   */
  beforeErase?(subject: CandidateSubject): Promise<void>;
}

/** A table that holds no candidate data, and why (read by reviewers and by the completeness test). */
export interface CandidateFreeTable {
  table: string;
  reason: string;
}

export type CandidateDataRegistration = { kind: 'store'; store: CandidateDataStore } | { kind: 'free'; table: CandidateFreeTable };

/** tsyringe multi-token: `container.register(CANDIDATE_DATA, { useValue: … })`, read with resolveAll. */
export const CANDIDATE_DATA = Symbol('CandidateData');

export const candidateStore = (store: CandidateDataStore): CandidateDataRegistration => ({ kind: 'store', store });
export const noCandidateData = (table: string, reason: string): CandidateDataRegistration => ({ kind: 'free', table: { table, reason } });
