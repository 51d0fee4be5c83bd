/** hi_status_updates and hi_message_unsubscribes through knex (StatusUpdateRepository). */
import type { Database } from '../../../platform/database/database';
import type { StatusUpdate, StatusUpdateRepository, StatusUpdateStatus } from '../domain/status-update';

interface Row {
  id: string;
  organization_id: string;
  change_id: string;
  application_id: string;
  recipient_name: string;
  recipient_email: string;
  language: string;
  stage: string;
  status: StatusUpdateStatus;
  reason: string | null;
  run_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const toDomain = (row: Row): StatusUpdate => ({
  id: row.id,
  organizationId: row.organization_id,
  changeId: row.change_id,
  applicationId: row.application_id,
  recipientName: row.recipient_name,
  recipientEmail: row.recipient_email,
  language: row.language,
  stage: row.stage,
  status: row.status,
  reason: row.reason,
  runId: row.run_id,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

export class KnexStatusUpdateRepository implements StatusUpdateRepository {
  constructor(private readonly db: Database) {}

  async claim(u: StatusUpdate): Promise<StatusUpdate> {
    await this.db('hi_status_updates')
      .insert({
        id: u.id,
        organization_id: u.organizationId,
        change_id: u.changeId,
        application_id: u.applicationId,
        recipient_name: u.recipientName,
        recipient_email: u.recipientEmail,
        language: u.language,
        stage: u.stage,
        status: u.status,
        reason: u.reason,
        run_id: u.runId,
        created_at: u.createdAt,
        updated_at: u.updatedAt,
      })
      .onConflict(['organization_id', 'change_id'])
      .ignore();
    const row = await this.db<Row>('hi_status_updates').where({ organization_id: u.organizationId, change_id: u.changeId }).first();
    return toDomain(row!);
  }

  async get(organizationId: string, id: string): Promise<StatusUpdate | undefined> {
    const row = await this.db<Row>('hi_status_updates').where({ organization_id: organizationId, id }).first();
    return row ? toDomain(row) : undefined;
  }

  async settle(id: string, change: { status: Exclude<StatusUpdateStatus, 'pending'>; reason: string | null; runId?: string | null; at: Date }): Promise<void> {
    await this.db('hi_status_updates')
      .where({ id })
      .update({ status: change.status, reason: change.reason, ...(change.runId !== undefined ? { run_id: change.runId } : {}), updated_at: change.at });
  }

  async isUnsubscribed(organizationId: string, email: string, topic: string): Promise<boolean> {
    return Boolean(await this.db('hi_message_unsubscribes').where({ organization_id: organizationId, email, topic }).first('email'));
  }

  async unsubscribe(organizationId: string, email: string, topic: string, sourceId: string, at: Date): Promise<boolean> {
    const inserted = await this.db('hi_message_unsubscribes')
      .insert({ organization_id: organizationId, email, topic, source_id: sourceId, created_at: at })
      .onConflict(['organization_id', 'email', 'topic'])
      .ignore()
      .returning('email');
    return inserted.length > 0;
  }
}
