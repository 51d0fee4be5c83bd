/** Employees' documents' metadata and review decisions on knex (the files are in the blob store). */
import type { Database } from '../../../platform/database/database';
import type { DocumentMediaType } from '../../credential-documents/domain/document-type';
import type { EmployeeDocument, EmployeeDocumentDecision, EmployeeDocumentRepository, EmployeeDocumentStatus } from '../domain/employee-document';

const TABLE = 'hi_employee_documents';

interface Row {
  id: string;
  organization_id: string;
  employee_id: string;
  role_id: string;
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

const date = (value: Date | null) => (value ? new Date(value) : null);

const fromRow = (r: Row): EmployeeDocument => ({
  id: r.id,
  organizationId: r.organization_id,
  employeeId: r.employee_id,
  roleId: r.role_id,
  requirementKey: r.requirement_key,
  credentialType: r.credential_type,
  fileName: r.file_name,
  mediaType: r.media_type as DocumentMediaType,
  sizeBytes: Number(r.size_bytes),
  sha256: r.sha256,
  status: r.status as EmployeeDocumentStatus,
  expiresAt: date(r.expires_at),
  rejectionReason: r.rejection_reason,
  reviewedBy: r.reviewed_by,
  reviewedAt: date(r.reviewed_at),
  createdAt: new Date(r.created_at),
});

export class KnexEmployeeDocuments implements EmployeeDocumentRepository {
  constructor(private readonly db: Database) {}

  async insert(d: EmployeeDocument): Promise<void> {
    await this.db<Row>(TABLE).insert({
      id: d.id,
      organization_id: d.organizationId,
      employee_id: d.employeeId,
      role_id: d.roleId,
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

  async get(organizationId: string, employeeId: string, id: string): Promise<EmployeeDocument | undefined> {
    const row = await this.db<Row>(TABLE).where({ organization_id: organizationId, employee_id: employeeId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async listForEmployee(organizationId: string, employeeId: string): Promise<EmployeeDocument[]> {
    return (await this.db<Row>(TABLE).where({ organization_id: organizationId, employee_id: employeeId }).orderBy(['created_at', 'id'])).map(fromRow);
  }

  async decide(organizationId: string, id: string, decision: EmployeeDocumentDecision): Promise<EmployeeDocument | undefined> {
    const rows = await this.db<Row>(TABLE)
      .where({ organization_id: organizationId, id, status: 'pending_review' })
      .update({
        status: decision.decision === 'approve' ? 'approved' : 'rejected',
        expires_at: decision.decision === 'approve' ? decision.expiresAt : null,
        rejection_reason: decision.decision === 'reject' ? decision.reason : null,
        reviewed_by: decision.reviewedBy,
        reviewed_at: decision.at,
      })
      .returning('*');
    return rows[0] ? fromRow(rows[0] as Row) : undefined;
  }
}
