/**
 * The one-liner for feature authors: a knex table whose rows belong to one candidate of
 * one organization becomes a registered store with `tableStore(db, { name, table, … })`.
 * By default rows are found by `organization_id` + `profile_user_id`, exported whole
 * (minus `omit`), and erased by deleting them.
 */
import type { Knex } from 'knex';
import type { CandidateDataStore, CandidateSubject, ErasureOutcome } from '../domain/candidate-data';

export interface TableStoreOptions {
  name: string;
  description: string;
  table: string;
  /** Narrows a query on `table` to the subject's rows; default: organization_id and profile_user_id. */
  where?: (query: Knex.QueryBuilder, subject: CandidateSubject) => Knex.QueryBuilder;
  /** Columns left out of the export (ciphertexts, digests): what they protect is not the candidate's to read. */
  omit?: readonly string[];
  /** Erase by updating the rows with these values instead of deleting them (rows other records need). */
  anonymize?: (subject: CandidateSubject) => Record<string, unknown>;
  /** Runs before the rows are erased (see CandidateDataStore.beforeErase). */
  beforeErase?: (subject: CandidateSubject) => Promise<void>;
}

export const byOrganizationAndCandidate = (query: Knex.QueryBuilder, subject: CandidateSubject) =>
  query.where({ organization_id: subject.organizationId, profile_user_id: subject.profileUserId });

/** JSON-safe copies of rows: dates as ISO strings, bigints as numbers, `omit` left out. */
export function exportRows(rows: Record<string, unknown>[], omit: readonly string[] = []): Record<string, unknown>[] {
  return rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(row)) {
      if (omit.includes(column)) continue;
      out[column] = value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? Number(value) : value;
    }
    return out;
  });
}

export function tableStore(db: Knex, options: TableStoreOptions): CandidateDataStore {
  const where = options.where ?? byOrganizationAndCandidate;
  return {
    name: options.name,
    description: options.description,
    tables: [options.table],
    async export(subject) {
      return exportRows(await where(db(options.table).select('*'), subject), options.omit);
    },
    beforeErase: options.beforeErase,
    async erase(subject): Promise<ErasureOutcome> {
      const query = where(db(options.table), subject);
      // RETURNING counts the rows on both drivers (knex-pglite's plain delete answers no count).
      const rows: unknown[] = options.anonymize ? await query.update(options.anonymize(subject)).returning('*') : await query.delete().returning('*');
      return { erased: rows.length };
    },
  };
}
