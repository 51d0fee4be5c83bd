/**
 * The export document (GDPR Art. 15 and 20): one JSON document with every registered
 * store's records of the candidate, and its own completeness: which stores it covered
 * and whether any could not be read.
 */
import type { CandidateDataStore, CandidateSubject } from './candidate-data';

export interface ExportStoreSection {
  name: string;
  description: string;
  records: Record<string, unknown>[];
}

export interface ExportDocument {
  format: 'hiring-integrations.candidate-export.v1';
  organization_id: string;
  profile_user_id: string;
  generated_at: string;
  completeness: {
    /** Every store registered when the export ran, each read whole. */
    stores_covered: string[];
    record_count: number;
  };
  stores: ExportStoreSection[];
}

/** Reads every store; one that fails fails the export (a partial export would claim completeness it lacks). */
export async function buildExportDocument(stores: readonly CandidateDataStore[], subject: CandidateSubject, at: Date): Promise<ExportDocument> {
  const sections: ExportStoreSection[] = [];
  for (const store of stores) {
    sections.push({ name: store.name, description: store.description, records: await store.export(subject) });
  }
  return {
    format: 'hiring-integrations.candidate-export.v1',
    organization_id: subject.organizationId,
    profile_user_id: subject.profileUserId,
    generated_at: at.toISOString(),
    completeness: { stores_covered: sections.map((s) => s.name), record_count: sections.reduce((n, s) => n + s.records.length, 0) },
    stores: sections,
  };
}
