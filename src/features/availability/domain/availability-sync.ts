/**
 * Keeps the busy-time cache current: each tracked calendar's changes since its stored sync
 * state (RFC 6578 sync-collection, else the ctag and a full read: the connector decides, and
 * a token the server no longer accepts ends in a full read), stored as busy intervals. Every
 * sync is an action run (step `calendar_sync`) that succeeds on the server's sync answer; a
 * failure is the run's stable code (`connection_unreachable`, `calendar_not_found`,
 * `connection_protocol_error`, …) and on the calendar, whose cache then stops answering once stale.
 */
import { conflict, DomainError, isDomainError, notFound } from '../../../kernel/errors';
import type { ActionRun } from '../../action-runs/domain/action-run';
import type { StepRunner } from '../../scheduling/domain/recorded-calendar';
import type { CalendarChanges, CalendarConnector } from '../../scheduling/domain/calendar-port';
import {
  AVAILABILITY_SYNC_ACTION,
  FULL_RESYNC_AFTER_MS,
  SYNC_INTERVAL_MS,
  type CalendarRef,
  type TrackedCalendar,
  type TrackedCalendarStore,
} from './tracked-calendar';

export interface OpenedCalendar {
  calendar: CalendarConnector;
  connector: string;
  livemode: boolean;
}

/** Opens the organization's calendar connection (and the calendar named by `calendarUrl`). */
export interface CalendarOpener {
  open(ref: CalendarRef): Promise<OpenedCalendar>;
}

export interface SyncOutcome {
  calendarId: string;
  status: 'succeeded' | 'failed';
  runId?: string;
  errorCode?: string;
  /** What the server's answer changed (a success). */
  changes?: { full: boolean; changed: number; removed: number };
}

const MINUTE_SLACK_MS = 30_000;

export class AvailabilitySync {
  constructor(
    private readonly store: TrackedCalendarStore,
    private readonly opener: CalendarOpener,
    private readonly runner: StepRunner,
    private readonly licensed: (organizationId: string) => Promise<boolean>,
    private readonly now: () => Date,
  ) {}

  /** The repeating job: every calendar not read for an interval, of organizations holding the license. */
  async syncDue(limit = 200): Promise<SyncOutcome[]> {
    const now = this.now();
    const due = await this.store.due(new Date(now.getTime() - SYNC_INTERVAL_MS + MINUTE_SLACK_MS), limit);
    const outcomes: SyncOutcome[] = [];
    const allowed = new Map<string, boolean>();
    for (const calendar of due) {
      if (!allowed.has(calendar.organizationId)) allowed.set(calendar.organizationId, await this.licensed(calendar.organizationId));
      // Skipped calendars move to the back of the line, so they never crowd out licensed ones.
      if (!allowed.get(calendar.organizationId)) {
        await this.store.markChecked(calendar, now);
        continue;
      }
      outcomes.push(await this.sync(calendar));
    }
    return outcomes;
  }

  /** One sync of one calendar, as an action run; never throws for the counterpart's failures. */
  async sync(calendar: TrackedCalendar): Promise<SyncOutcome> {
    const now = this.now();
    let run: ActionRun | undefined;
    let changes: CalendarChanges | undefined;
    try {
      const opened = await this.opener.open(calendar);
      const fullDue = !calendar.fullSyncedAt || now.getTime() - calendar.fullSyncedAt.getTime() > FULL_RESYNC_AFTER_MS;
      run = await this.runner.perform(
        {
          organizationId: calendar.organizationId,
          idempotencyKey: `availability-sync-${calendar.id}-${now.toISOString()}`,
          action: AVAILABILITY_SYNC_ACTION,
          hook: null,
          step: 'calendar_sync',
          connector: opened.connector,
          connectionId: calendar.connectionId,
          livemode: opened.livemode,
        },
        async () => {
          try {
            changes = await opened.calendar.changes(fullDue ? undefined : calendar.syncState);
          } catch (error) {
            // The next sync is a new run a few minutes later: this one ends with its code, not `retrying`.
            if (isDomainError(error) && error.kind === 'upstream') throw new DomainError('conflict', error.code, error.message);
            throw error;
          }
          return {
            reference: `sync:${calendar.id}`,
            answer: { full: changes.full, changed: changes.changed.length, removed: changes.removed.length },
          };
        },
      );
    } catch (error) {
      const code = isDomainError(error) ? error.code : 'connector_error';
      await this.store.markFailed(calendar, code, now);
      return { calendarId: calendar.id, status: 'failed', errorCode: code, ...(run ? { runId: run.id } : {}) };
    }
    if (changes) await this.store.apply(calendar, changes, now);
    return {
      calendarId: calendar.id,
      status: 'succeeded',
      runId: run.id,
      ...(changes ? { changes: { full: changes.full, changed: changes.changed.length, removed: changes.removed.length } } : {}),
    };
  }

  /**
   * The host asks for a sync now (POST /v1/availability/calendars/{id}/sync): the same sync the
   * job runs, as its own action run, answered with its outcome. A stopped calendar is
   * `409 calendar_stopped`; without the license, `403 license_required`.
   */
  async syncNow(organizationId: string, id: string): Promise<{ calendar: TrackedCalendar; outcome: SyncOutcome }> {
    const calendar = await this.calendar(organizationId, id);
    if (!(await this.licensed(organizationId)))
      throw new DomainError(
        'forbidden',
        'license_required',
        `The ${AVAILABILITY_SYNC_ACTION} license is not active for this organization (POST /v1/integrations/licenses/${AVAILABILITY_SYNC_ACTION}/activate)`,
        { action_key: AVAILABILITY_SYNC_ACTION },
      );
    if (calendar.stoppedAt) throw conflict('calendar_stopped', 'This calendar is not followed; resume it first (POST …/resume)');
    const outcome = await this.sync(calendar);
    return { calendar: await this.calendar(organizationId, id), outcome };
  }

  /** Stops following the calendar: no more syncs, its busy times block no slot, its cached busy rows dropped. Idempotent. */
  async stop(organizationId: string, id: string): Promise<TrackedCalendar> {
    const calendar = await this.calendar(organizationId, id);
    if (!calendar.stoppedAt) await this.store.stop(calendar, this.now());
    return this.calendar(organizationId, id);
  }

  /** Follows the calendar again: the job reads it in full first (until then slots read it live). Idempotent. */
  async resume(organizationId: string, id: string): Promise<TrackedCalendar> {
    const calendar = await this.calendar(organizationId, id);
    if (calendar.stoppedAt) await this.store.resume(calendar);
    return this.calendar(organizationId, id);
  }

  private async calendar(organizationId: string, id: string): Promise<TrackedCalendar> {
    const calendar = await this.store.get(organizationId, id);
    if (!calendar) throw notFound('availability_calendar', id);
    return calendar;
  }
}
