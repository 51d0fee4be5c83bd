/**
 * An interviewer's calendar whose writes are action runs: every event written or removed is
 * on record (GET /v1/integrations/runs) with the counterpart's answer (the event's URL), is
 * `succeeded` only once the CalDAV server acknowledged it, and is never repeated for the same
 * UID, SEQUENCE and calendar. Reads (busy times, changes) are not runs: they change nothing.
 */
import { createHash } from 'node:crypto';
import type { ActionRun, RunStart } from '../../action-runs/domain/action-run';
import type { StepAnswer } from '../../action-runs/domain/action-runner';
import type { CalendarConnector, CalendarEvent, TimeRange } from './calendar-port';

export interface StepRunner {
  perform(start: RunStart, step: () => Promise<StepAnswer>): Promise<ActionRun>;
}

export interface RecordedCalendarScope {
  organizationId: string;
  action: string;
  connector: string;
  connectionId: string;
  /** Which of the connection's calendars (one account may hold several interviewers' calendars). */
  calendarUrl?: string;
  livemode: boolean;
}

export class RecordedCalendar implements CalendarConnector {
  constructor(
    private readonly calendar: CalendarConnector,
    private readonly runner: StepRunner,
    private readonly scope: RecordedCalendarScope,
  ) {}

  calendars() {
    return this.calendar.calendars();
  }

  busy(range: TimeRange) {
    return this.calendar.busy(range);
  }

  changes(state?: string) {
    return this.calendar.changes(state);
  }

  async putEvent(event: CalendarEvent): Promise<{ url: string; etag?: string }> {
    const run = await this.runner.perform(this.start(`calendar-put-${event.uid}-${event.sequence}`), async () => {
      const written = await this.calendar.putEvent(event);
      return { reference: written.url, answer: { url: written.url, ...(written.etag ? { etag: written.etag } : {}) } };
    });
    const answer = run.result ?? {};
    return { url: String(answer.url ?? run.reference ?? ''), ...(typeof answer.etag === 'string' ? { etag: answer.etag } : {}) };
  }

  /** An interview's UID is removed once in its life (cancelled, or undone when another calendar refused it). */
  async deleteEvent(uid: string): Promise<void> {
    await this.runner.perform(this.start(`calendar-delete-${uid}`), async () => {
      await this.calendar.deleteEvent(uid);
      return { reference: `deleted:${uid}` };
    });
  }

  private start(key: string): RunStart {
    return {
      organizationId: this.scope.organizationId,
      idempotencyKey: `${key}-${this.scope.connectionId}${this.scope.calendarUrl ? `-${createHash('sha256').update(this.scope.calendarUrl).digest('hex').slice(0, 16)}` : ''}`,
      action: this.scope.action,
      hook: null,
      step: 'calendar',
      connector: this.scope.connector,
      connectionId: this.scope.connectionId,
      livemode: this.scope.livemode,
    };
  }
}
