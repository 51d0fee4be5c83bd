/** Credential documents' metadata and review decisions on knex (the files are in the blob store). */
import type { Database } from '../../../platform/database/database';
import type { DocumentMediaType } from '../domain/document-type';
import type { CredentialDocument, CredentialDocumentRepository, DocumentStatus, ReviewDecision } from '../domain/credential-document';

const TABLE = 'hi_credential_documents';

interface DocumentRow {
  id: string;
  organization_id: string;
  application_id: string;
  listing_id: string;
  profile_user_id: string;
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

const fromRow = (r: DocumentRow): CredentialDocument => ({
  id: r.id,
  organizationId: r.organization_id,
  applicationId: r.application_id,
  listingId: r.listing_id,
  profileUserId: r.profile_user_id,
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
});

export class KnexCredentialDocuments implements CredentialDocumentRepository {
  constructor(private readonly db: Database) {}

  async insert(d: CredentialDocument): Promise<void> {
    await this.db<DocumentRow>(TABLE).insert({
      id: d.id,
      organization_id: d.organizationId,
      application_id: d.applicationId,
      listing_id: d.listingId,
      profile_user_id: d.profileUserId,
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

  async get(organizationId: string, id: string): Promise<CredentialDocument | undefined> {
    const row = await this.db<DocumentRow>(TABLE).where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async listForApplication(organizationId: string, applicationId: string): Promise<CredentialDocument[]> {
    const rows = await this.db<DocumentRow>(TABLE).where({ organization_id: organizationId, application_id: applicationId }).orderBy('created_at');
    return rows.map(fromRow);
  }

  async listApproved(organizationId: string, applicationIds: string[]): Promise<CredentialDocument[]> {
    if (applicationIds.length === 0) return [];
    const rows = await this.db<DocumentRow>(TABLE)
      .where({ organization_id: organizationId, status: 'approved' })
      .whereIn('application_id', applicationIds)
      .orderBy('created_at');
    return rows.map(fromRow);
  }

  async decide(organizationId: string, id: string, decision: ReviewDecision): Promise<CredentialDocument | undefined> {
    const rows = await this.db<DocumentRow>(TABLE)
      .where({ organization_id: organizationId, id, status: 'pending_review' })
      .update({
        status: decision.decision === 'approve' ? 'approved' : 'rejected',
        expires_at: decision.decision === 'approve' ? decision.expiresAt : null,
        rejection_reason: decision.decision === 'reject' ? decision.reason : null,
        reviewed_by: decision.reviewedBy,
        reviewed_at: decision.at,
      })
      .returning('*');
    return rows[0] ? fromRow(rows[0] as DocumentRow) : undefined;
  }
}
