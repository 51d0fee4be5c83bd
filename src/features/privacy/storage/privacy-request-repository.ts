/** hi_candidate_exports, hi_candidate_erasures and hi_legal_holds. */
import { inject, injectable } from 'tsyringe';
import { OUTBOX_NOTIFIER, type OutboxMessage, type OutboxNotifier } from '../../../kernel/outbox';
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { writeOutbox } from '../../events/storage/outbox-writer';
import { DATABASE } from '../../../platform/database/tokens';
import type { ExportDocument } from '../domain/export-document';
import type { CandidateErasure, CandidateExport, LegalHold, PrivacyRequestRepository } from '../domain/privacy-requests';

type Row = Record<string, any>;
interface Contacts {
  emails: string[];
  phones: string[];
}

const date = (value: unknown) => (value == null ? null : new Date(value as string));

function exportFromRow(row: Row): CandidateExport {
  const contacts = fromJson<Contacts>(row.contacts);
  return {
    id: row.id,
    subject: { organizationId: row.organization_id, profileUserId: row.profile_user_id, emails: contacts.emails, phones: contacts.phones },
    status: row.status,
    document: row.document == null ? null : fromJson<ExportDocument>(row.document),
    failureReason: row.failure_reason,
    createdAt: new Date(row.created_at),
    completedAt: date(row.completed_at),
    expiresAt: new Date(row.expires_at),
  };
}

function erasureFromRow(row: Row): CandidateErasure {
  const contacts = row.contacts == null ? null : fromJson<Contacts>(row.contacts);
  return {
    id: row.id,
    organizationId: row.organization_id,
    subjectDigest: row.subject_digest,
    subject:
      row.profile_user_id == null
        ? null
        : { organizationId: row.organization_id, profileUserId: row.profile_user_id, emails: contacts?.emails ?? [], phones: contacts?.phones ?? [] },
    reason: row.reason,
    status: row.status,
    progress: fromJson<Record<string, number>>(row.progress),
    attempts: Number(row.attempts),
    lastError: row.last_error,
    createdAt: new Date(row.created_at),
    completedAt: date(row.completed_at),
  };
}

function holdFromRow(row: Row): LegalHold {
  return {
    id: row.id,
    organizationId: row.organization_id,
    profileUserId: row.profile_user_id,
    reason: row.reason,
    createdAt: new Date(row.created_at),
    releasedAt: date(row.released_at),
  };
}

@injectable()
export class KnexPrivacyRequestRepository implements PrivacyRequestRepository {
  constructor(
    @inject(DATABASE) private readonly db: Database,
    @inject(OUTBOX_NOTIFIER) private readonly outbox: OutboxNotifier,
  ) {}

  async createExport(record: CandidateExport, messages: readonly OutboxMessage[]): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('hi_candidate_exports').insert({
        id: record.id,
        organization_id: record.subject.organizationId,
        profile_user_id: record.subject.profileUserId,
        contacts: JSON.stringify({ emails: record.subject.emails, phones: record.subject.phones }),
        status: record.status,
        created_at: record.createdAt,
        expires_at: record.expiresAt,
      });
      await writeOutbox(trx, messages);
    });
    this.outbox.nudge();
  }

  async findExport(organizationId: string, exportId: string): Promise<CandidateExport | undefined> {
    const row = await this.db('hi_candidate_exports').where({ id: exportId, organization_id: organizationId }).first();
    return row ? exportFromRow(row) : undefined;
  }

  async findExportById(exportId: string): Promise<CandidateExport | undefined> {
    const row = await this.db('hi_candidate_exports').where({ id: exportId }).first();
    return row ? exportFromRow(row) : undefined;
  }

  async settleExport(exportId: string, outcome: { document: ExportDocument } | { failureReason: string }, at: Date): Promise<void> {
    await this.db('hi_candidate_exports')
      .where({ id: exportId, status: 'pending' })
      .update(
        'document' in outcome
          ? { status: 'succeeded', document: JSON.stringify(outcome.document), completed_at: at }
          : { status: 'failed', failure_reason: outcome.failureReason, completed_at: at },
      );
  }

  async createErasure(record: CandidateErasure, messages: (stored: CandidateErasure) => readonly OutboxMessage[]): Promise<CandidateErasure> {
    const subject = record.subject!;
    const stored = await this.db.transaction(async (trx) => {
      const inserted = await trx('hi_candidate_erasures')
        .insert({
          id: record.id,
          organization_id: record.organizationId,
          subject_digest: record.subjectDigest,
          profile_user_id: subject.profileUserId,
          contacts: JSON.stringify({ emails: subject.emails, phones: subject.phones }),
          reason: record.reason,
          status: 'pending',
          progress: JSON.stringify({}),
          created_at: record.createdAt,
        })
        .onConflict(this.db.raw("(organization_id, subject_digest) where status = 'pending'"))
        .ignore()
        .returning('id');
      if (inserted.length === 0) {
        const pending = await trx('hi_candidate_erasures')
          .where({ organization_id: record.organizationId, subject_digest: record.subjectDigest, status: 'pending' })
          .first();
        return erasureFromRow(pending);
      }
      await writeOutbox(trx, messages(record));
      return record;
    });
    this.outbox.nudge();
    return stored;
  }

  async findErasure(organizationId: string, erasureId: string): Promise<CandidateErasure | undefined> {
    const row = await this.db('hi_candidate_erasures').where({ id: erasureId, organization_id: organizationId }).first();
    return row ? erasureFromRow(row) : undefined;
  }

  async findErasureById(erasureId: string): Promise<CandidateErasure | undefined> {
    const row = await this.db('hi_candidate_erasures').where({ id: erasureId }).first();
    return row ? erasureFromRow(row) : undefined;
  }

  async recordErasureProgress(erasureId: string, store: string, erased: number): Promise<void> {
    await this.db('hi_candidate_erasures')
      .where({ id: erasureId, status: 'pending' })
      .update({ progress: this.db.raw('progress || ?::jsonb', [JSON.stringify({ [store]: erased })]) });
  }

  async recordErasureFailure(erasureId: string, error: string): Promise<void> {
    await this.db('hi_candidate_erasures')
      .where({ id: erasureId, status: 'pending' })
      .update({ attempts: this.db.raw('attempts + 1'), last_error: error });
  }

  async completeErasure(erasureId: string, at: Date, messages: readonly OutboxMessage[]): Promise<void> {
    await this.db.transaction(async (trx) => {
      const updated = await trx('hi_candidate_erasures')
        .where({ id: erasureId, status: 'pending' })
        .update({ status: 'succeeded', profile_user_id: null, contacts: null, last_error: null, completed_at: at });
      if (Number(updated) > 0) await writeOutbox(trx, messages);
    });
    this.outbox.nudge();
  }

  async pendingErasures(olderThan: Date): Promise<CandidateErasure[]> {
    const rows = await this.db('hi_candidate_erasures').where({ status: 'pending' }).where('created_at', '<', olderThan).orderBy('created_at').limit(100);
    return rows.map(erasureFromRow);
  }

  async placeHold(hold: LegalHold): Promise<void> {
    await this.db('hi_legal_holds').insert({
      id: hold.id,
      organization_id: hold.organizationId,
      profile_user_id: hold.profileUserId,
      reason: hold.reason,
      created_at: hold.createdAt,
    });
  }

  async releaseHold(organizationId: string, profileUserId: string, holdId: string, at: Date): Promise<LegalHold | undefined> {
    const where = { id: holdId, organization_id: organizationId, profile_user_id: profileUserId };
    await this.db('hi_legal_holds').where(where).whereNull('released_at').update({ released_at: at });
    const row = await this.db('hi_legal_holds').where(where).first();
    return row ? holdFromRow(row) : undefined;
  }

  async listHolds(organizationId: string, profileUserId: string): Promise<LegalHold[]> {
    const rows = await this.db('hi_legal_holds').where({ organization_id: organizationId, profile_user_id: profileUserId }).orderBy('created_at', 'desc');
    return rows.map(holdFromRow);
  }

  async activeHold(organizationId: string, profileUserId: string): Promise<LegalHold | undefined> {
    const row = await this.db('hi_legal_holds').where({ organization_id: organizationId, profile_user_id: profileUserId }).whereNull('released_at').first();
    return row ? holdFromRow(row) : undefined;
  }
}
