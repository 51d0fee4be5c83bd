/**
 * Turns the records into the file's text, a chunk per batch: only one batch (and, for HR
 * Open JSON, one candidate's applications) is held at a time, so 100,000 rows stream in
 * bounded memory. The caller writes each chunk before asking for the next (back-pressure).
 */
import { csvHeader, csvRows } from './csv-export';
import type { ExportFormat, ExportRecord } from './export-record';
import { candidateDocument } from './hr-open-export';

const BATCH = 500;

export async function* exportChunks(records: AsyncIterable<ExportRecord>, format: ExportFormat): AsyncGenerator<string> {
  if (format === 'csv') {
    yield csvHeader();
    let batch: ExportRecord[] = [];
    for await (const record of records) {
      batch.push(record);
      if (batch.length >= BATCH) {
        yield csvRows(batch);
        batch = [];
      }
    }
    if (batch.length > 0) yield csvRows(batch);
    return;
  }
  yield '[';
  let first = true;
  let candidate: ExportRecord[] = [];
  let pending: string[] = [];
  const flushCandidate = () => {
    if (candidate.length === 0) return;
    pending.push(`${first ? '\n' : ',\n'}${JSON.stringify(candidateDocument(candidate))}`);
    first = false;
    candidate = [];
  };
  for await (const record of records) {
    if (candidate.length > 0 && candidate[0]!.profileUserId !== record.profileUserId) flushCandidate();
    candidate.push(record);
    if (pending.length >= BATCH) {
      yield pending.join('');
      pending = [];
    }
  }
  flushCandidate();
  pending.push(first ? ']\n' : '\n]\n');
  yield pending.join('');
}

export const fileExtension = (format: ExportFormat) => (format === 'csv' ? 'csv' : 'json');
export const mediaType = (format: ExportFormat) => (format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
