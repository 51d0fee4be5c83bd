/** The standalone host's hiring pipeline: where delivered applications land. */
import type { Pipeline, PipelineApplication } from '../../features/applications/domain/pipeline';
import type { Database } from '../../platform/database/database';

export interface PipelineEntry {
  applicationId: string;
  organizationId: string;
  listingId: string;
  profileUserId: string;
  stage: string;
  receivedAt: Date;
  application: PipelineApplication;
}

export class PipelineStore implements Pipeline {
  constructor(private readonly db: Database) {}

  /** Idempotent: a redelivered application is ignored. */
  async deliver(application: PipelineApplication): Promise<void> {
    await this.db('host_pipeline_applications')
      .insert({
        application_id: application.applicationId,
        organization_id: application.organizationId,
        listing_id: application.listingId,
        profile_user_id: application.profileUserId,
        payload: JSON.stringify(application),
      })
      .onConflict('application_id')
      .ignore();
  }

  async listForOrganization(organizationId: string, limit = 100): Promise<PipelineEntry[]> {
    const rows = await this.db('host_pipeline_applications').where({ organization_id: organizationId }).orderBy('received_at', 'desc').limit(limit);
    return rows.map((row) => ({
      applicationId: row.application_id,
      organizationId: row.organization_id,
      listingId: row.listing_id,
      profileUserId: row.profile_user_id,
      stage: row.stage,
      receivedAt: new Date(row.received_at),
      application: typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload,
    }));
  }
}
