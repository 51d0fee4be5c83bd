/**
 * Reviewed documents' metadata and review decisions on knex (the files are in the blob store):
 * one mapping for every subject. Each subject keeps its own table (hi_credential_documents for
 * applications, hi_employee_documents for employees: their rows reference different parents
 * and are erased with them); `subject` maps the subject's fields to that table's columns.
 */
import type { Database } from '../../../platform/database/database';
import type { DocumentMediaType } from '../domain/document-type';
import type { DocumentStatus, DocumentSubject, ReviewDecision, ReviewedDocument, ReviewedDocumentRepository } from '../domain/reviewed-document';

interface CommonRow {
  id: string;
  organization_id: string;
  requirement_key: string;
  credential_type: string;
  file_name: string;
  media_type: string;
  size_bytes: number;
  sha256: string;
  status: string;
  expires_at: Date | null;
  rejection_reason: string | null;
  reviewed_by: string | null;
  reviewed_at: Date | null;
  created_at: Date;
}
type Row = CommonRow & Record<string, unknown>;

const date = (value: Date | null) => (value ? new Date(value) : null);

export class KnexReviewedDocuments<S extends DocumentSubject> implements ReviewedDocumentRepository<S> {
  constructor(
    private readonly db: Database,
    private readonly table: string,
    /** Subject field → column, e.g. { employeeId: 'employee_id', roleId: 'role_id' }. */
    private readonly subject: { [K in keyof S]: string },
  ) {}

  async insert(d: ReviewedDocument<S>): Promise<void> {
    await this.db(this.table).insert({
      id: d.id,
      organization_id: d.organizationId,
      ...this.columns(d),
      requirement_key: d.requirementKey,
      credential_type: d.credentialType,
      file_name: d.fileName,
      media_type: d.mediaType,
      size_bytes: d.sizeBytes,
      sha256: d.sha256,
      status: d.status,
      expires_at: d.expiresAt,
      rejection_reason: d.rejectionReason,
      reviewed_by: d.reviewedBy,
      reviewed_at: d.reviewedAt,
      created_at: d.createdAt,
    });
  }

  async get(organizationId: string, id: string, of: Partial<S> = {}): Promise<ReviewedDocument<S> | undefined> {
    const row = await this.db<Row>(this.table)
      .where({ organization_id: organizationId, id, ...this.columns(of) })
      .first();
    return row ? this.fromRow(row) : undefined;
  }

  async list(organizationId: string, of: Partial<S>): Promise<ReviewedDocument<S>[]> {
    const rows = await this.db<Row>(this.table)
      .where({ organization_id: organizationId, ...this.columns(of) })
      .orderBy(['created_at', 'id']);
    return rows.map((r) => this.fromRow(r));
  }

  async listApproved(organizationId: string, field: keyof S & string, ids: string[]): Promise<ReviewedDocument<S>[]> {
    if (ids.length === 0) return [];
    const rows = await this.db<Row>(this.table)
      .where({ organization_id: organizationId, status: 'approved' })
      .whereIn(this.subject[field], ids)
      .orderBy(['created_at', 'id']);
    return rows.map((r) => this.fromRow(r));
  }

  async decide(organizationId: string, id: string, decision: ReviewDecision): Promise<ReviewedDocument<S> | undefined> {
    const rows = await this.db<Row>(this.table)
      .where({ organization_id: organizationId, id, status: 'pending_review' })
      .update({
        status: decision.decision === 'approve' ? 'approved' : 'rejected',
        expires_at: decision.decision === 'approve' ? decision.expiresAt : null,
        rejection_reason: decision.decision === 'reject' ? decision.reason : null,
        reviewed_by: decision.reviewedBy,
        reviewed_at: decision.at,
      })
      .returning('*');
    return rows[0] ? this.fromRow(rows[0] as Row) : undefined;
  }

  /** The subject's fields present in `of`, as this table's columns. */
  private columns(of: Partial<S>): Record<string, string> {
    const columns: Record<string, string> = {};
    for (const [field, column] of Object.entries(this.subject) as [string, string][]) {
      const value = of[field];
      if (value !== undefined) columns[column] = value;
    }
    return columns;
  }

  private fromRow(r: Row): ReviewedDocument<S> {
    const subject: Record<string, string> = {};
    for (const [field, column] of Object.entries(this.subject) as [string, string][]) subject[field] = String(r[column]);
    return {
      ...(subject as S),
      id: r.id,
      organizationId: r.organization_id,
      requirementKey: r.requirement_key,
      credentialType: r.credential_type,
      fileName: r.file_name,
      mediaType: r.media_type as DocumentMediaType,
      sizeBytes: Number(r.size_bytes),
      sha256: r.sha256,
      status: r.status as DocumentStatus,
      expiresAt: date(r.expires_at),
      rejectionReason: r.rejection_reason,
      reviewedBy: r.reviewed_by,
      reviewedAt: date(r.reviewed_at),
      createdAt: new Date(r.created_at),
    };
  }
}
