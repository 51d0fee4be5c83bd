/**
 * What a sink (the HRIS) was last asked to do for each person. Hosts send no event id with
 * hooks, so a retry and a real change are told apart by comparing the report with the last one:
 * the same report again keeps the revision (the same action run key: nothing new is sent), a
 * different one, including a change back to an earlier state, is the next revision (a new run).
 */
import { createHash } from 'node:crypto';

export interface SyncLedger {
  /**
   * Records `digest` as the person's latest report to `sink` (atomically: concurrent identical
   * reports get the same revision) and returns the revision: +1 when it differs from the last.
   */
  advance(report: { organizationId: string; sink: string; candidateId: string; email: string | null; digest: string }, at: Date): Promise<number>;
}

export const SYNC_LEDGER = Symbol('SyncLedger');

export const reportDigest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
