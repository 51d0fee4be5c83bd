/**
 * The sandbox connectors: they send nothing and record what they would send in
 * `hi_connector_deliveries`, one row per idempotency key (insert-or-keep), answering
 * what the first call answered. Ids and URLs are derived from the idempotency key, so
 * the answer is the same however often it is asked. Registered for every connector
 * port until real integrations are configured.
 */
import { createHash } from 'node:crypto';
import type {
  Delivery,
  DeliveryBase,
  EmailMessage,
  EmployeeRecord,
  EmployeeDeactivation,
  HrisConnector,
  Meeting,
  MeetingRequest,
  NotificationConnector,
  SmsConnector,
  SmsMessage,
  SyncedEmployee,
  VideoMeetingConnector,
} from '../../features/hooks/domain/connectors';
import type { Database } from '../../platform/database/database';

export type SandboxConnectorName = 'email' | 'sms' | 'video_meetings' | 'hris' | 'background_checks';

export interface ConnectorDelivery {
  id: string;
  idempotencyKey: string;
  organizationId: string;
  connector: SandboxConnectorName;
  actionKey: string;
  request: Record<string, unknown>;
  response: Record<string, unknown>;
  createdAt: Date;
}

const digest = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 20);
const json = (value: unknown): Record<string, unknown> => (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;

export class SandboxDeliveryLog {
  constructor(private readonly db: Database) {}

  /** Records the delivery once per idempotency key and answers the recorded response. */
  async record<R extends Record<string, unknown>>(
    connector: SandboxConnectorName,
    base: DeliveryBase,
    request: Record<string, unknown>,
    response: R,
  ): Promise<R & { deliveryId: string }> {
    const id = `dlv_${digest(base.idempotencyKey)}`;
    await this.db('hi_connector_deliveries')
      .insert({
        id,
        idempotency_key: base.idempotencyKey,
        organization_id: base.organizationId,
        connector,
        action_key: base.actionKey,
        request: JSON.stringify(request),
        response: JSON.stringify(response),
        created_at: new Date(),
      })
      .onConflict('idempotency_key')
      .ignore();
    const row = await this.db('hi_connector_deliveries').where({ idempotency_key: base.idempotencyKey }).first('id', 'response');
    return { ...(json(row.response) as R), deliveryId: row.id as string };
  }

  async list(filter: { organizationId?: string; connector?: SandboxConnectorName } = {}): Promise<ConnectorDelivery[]> {
    let query = this.db('hi_connector_deliveries').orderBy('created_at', 'asc');
    if (filter.organizationId) query = query.where({ organization_id: filter.organizationId });
    if (filter.connector) query = query.where({ connector: filter.connector });
    return (await query).map((row: Record<string, unknown>) => ({
      id: row.id as string,
      idempotencyKey: row.idempotency_key as string,
      organizationId: row.organization_id as string,
      connector: row.connector as SandboxConnectorName,
      actionKey: row.action_key as string,
      request: json(row.request),
      response: json(row.response),
      createdAt: new Date(row.created_at as string),
    }));
  }
}

export class SandboxConnectors implements NotificationConnector, SmsConnector, VideoMeetingConnector, HrisConnector {
  constructor(private readonly log: SandboxDeliveryLog) {}

  sendEmail(m: EmailMessage): Promise<Delivery> {
    return this.log.record('email', m, { to: m.to, subject: m.subject, text: m.text }, {});
  }

  sendSms(m: SmsMessage): Promise<Delivery> {
    return this.log.record('sms', m, { to: m.to, text: m.text }, {});
  }

  createMeeting(r: MeetingRequest): Promise<Meeting> {
    const meetingId = `mtg_${digest(r.idempotencyKey)}`;
    return this.log.record(
      'video_meetings',
      r,
      { title: r.title, starts_at: r.startsAt.toISOString(), duration_minutes: r.durationMinutes, attendees: r.attendees },
      { meetingId, joinUrl: `https://meet.sandbox.invalid/${meetingId}` },
    );
  }

  syncEmployee(r: EmployeeRecord): Promise<SyncedEmployee> {
    return this.log.record(
      'hris',
      r,
      {
        candidate_id: r.candidateId,
        name: r.name,
        email: r.email,
        job_title: r.jobTitle,
        start_date: r.startDate,
        department: r.department,
        worker_type: r.workerType ?? 'employee',
      },
      // One id per person, whichever call (hire, change) recorded it.
      { employeeId: `emp_${digest(`${r.organizationId}-${r.candidateId}`)}` },
    );
  }

  deactivateEmployee(r: EmployeeDeactivation): Promise<SyncedEmployee> {
    return this.log.record('hris', r, { candidate_id: r.candidateId, active: false }, { employeeId: `emp_${digest(`${r.organizationId}-${r.candidateId}`)}` });
  }
}
