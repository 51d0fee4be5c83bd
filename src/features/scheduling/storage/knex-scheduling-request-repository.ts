/** Scheduling requests in PostgreSQL (hi_scheduling_requests). */
import { isUniqueViolation, type Database } from '../../../platform/database/database';
import type { TimeRange } from '../domain/calendar-port';
import type { Cancellation, SchedulingRequest, SchedulingRequestRepository } from '../domain/scheduling-request';

interface Row {
  id: string;
  organization_id: string;
  application_id: string;
  title: string;
  candidate_name: string;
  candidate_email: string;
  candidate_phone: string | null;
  language: string;
  timezone: string;
  duration_minutes: number;
  window_start: Date;
  window_end: Date;
  interviewers: SchedulingRequest['interviewers'] | string;
  organizer_name: string;
  organizer_email: string;
  status: SchedulingRequest['status'];
  cancelled_by: Cancellation['by'] | null;
  cancellation_reason: string | null;
  cancelled_at: Date | null;
  email_run_id: string | null;
  sms_run_id: string | null;
  link_expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

const fromRow = (r: Row): SchedulingRequest => ({
  id: r.id,
  organizationId: r.organization_id,
  applicationId: r.application_id,
  title: r.title,
  candidate: { name: r.candidate_name, email: r.candidate_email, phone: r.candidate_phone },
  language: r.language,
  timezone: r.timezone,
  durationMinutes: r.duration_minutes,
  window: { start: new Date(r.window_start), end: new Date(r.window_end) },
  interviewers: typeof r.interviewers === 'string' ? (JSON.parse(r.interviewers) as SchedulingRequest['interviewers']) : r.interviewers,
  organizer: { name: r.organizer_name, email: r.organizer_email },
  status: r.status,
  cancellation: r.cancelled_by ? { by: r.cancelled_by, reason: r.cancellation_reason, at: new Date(r.cancelled_at ?? r.updated_at) } : null,
  emailRunId: r.email_run_id,
  smsRunId: r.sms_run_id,
  linkExpiresAt: new Date(r.link_expires_at),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export class KnexSchedulingRequestRepository implements SchedulingRequestRepository {
  constructor(private readonly db: Database) {}

  async create(r: SchedulingRequest): Promise<string> {
    try {
      await this.insert(r);
      return r.id;
    } catch (error) {
      if (!isUniqueViolation(error, 'hi_scheduling_requests_open_window')) throw error;
      const winner = await this.findOpen(r.organizationId, r.applicationId, r.window);
      if (!winner) throw error;
      return winner.id;
    }
  }

  async findOpen(organizationId: string, applicationId: string, window: TimeRange): Promise<SchedulingRequest | undefined> {
    const row: Row | undefined = await this.db('hi_scheduling_requests')
      .where({ organization_id: organizationId, application_id: applicationId, window_start: window.start, window_end: window.end, status: 'open' })
      .first();
    return row ? fromRow(row) : undefined;
  }

  async remove(organizationId: string, id: string): Promise<void> {
    await this.db('hi_scheduling_requests').where({ organization_id: organizationId, id }).delete();
  }

  private async insert(r: SchedulingRequest): Promise<void> {
    await this.db('hi_scheduling_requests').insert({
      id: r.id,
      organization_id: r.organizationId,
      application_id: r.applicationId,
      title: r.title,
      candidate_name: r.candidate.name,
      candidate_email: r.candidate.email.toLowerCase(),
      candidate_phone: r.candidate.phone,
      language: r.language,
      timezone: r.timezone,
      duration_minutes: r.durationMinutes,
      window_start: r.window.start,
      window_end: r.window.end,
      interviewers: JSON.stringify(r.interviewers),
      organizer_name: r.organizer.name,
      organizer_email: r.organizer.email,
      status: r.status,
      email_run_id: r.emailRunId,
      sms_run_id: r.smsRunId,
      link_expires_at: r.linkExpiresAt,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
    });
  }

  async get(organizationId: string, id: string): Promise<SchedulingRequest | undefined> {
    const row: Row | undefined = await this.db('hi_scheduling_requests').where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async update(organizationId: string, id: string, changes: Partial<Pick<SchedulingRequest, 'status' | 'emailRunId' | 'smsRunId'>>, now: Date): Promise<void> {
    await this.db('hi_scheduling_requests')
      .where({ organization_id: organizationId, id })
      .update({
        ...(changes.status ? { status: changes.status } : {}),
        ...(changes.emailRunId !== undefined ? { email_run_id: changes.emailRunId } : {}),
        ...(changes.smsRunId !== undefined ? { sms_run_id: changes.smsRunId } : {}),
        updated_at: now,
      });
  }

  async markBooked(organizationId: string, id: string, now: Date): Promise<boolean> {
    const rows: unknown[] = await this.db('hi_scheduling_requests')
      .where({ organization_id: organizationId, id, status: 'open' })
      .update({ status: 'booked', updated_at: now })
      .returning('id');
    return rows.length > 0;
  }

  async cancel(organizationId: string, id: string, cancellation: Cancellation): Promise<boolean> {
    const rows: unknown[] = await this.db('hi_scheduling_requests')
      .where({ organization_id: organizationId, id })
      .whereNot({ status: 'cancelled' })
      .update({
        status: 'cancelled',
        cancelled_by: cancellation.by,
        cancellation_reason: cancellation.reason,
        cancelled_at: cancellation.at,
        updated_at: cancellation.at,
      })
      .returning('id');
    return rows.length > 0;
  }
}
