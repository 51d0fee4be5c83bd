/**
 * Keeps the busy-time cache current: each tracked calendar's changes since its stored sync
 * state (RFC 6578 sync-collection, else the ctag and a full read: the connector decides, and
 * a token the server no longer accepts ends in a full read), stored as busy intervals. Every
 * sync is an action run (step `calendar_sync`) that succeeds on the server's sync answer; a
 * failure is the run's stable code (`connection_unreachable`, `calendar_not_found`,
 * `connection_protocol_error`, …) and on the calendar, whose cache then stops answering once stale.
 */
import { DomainError, isDomainError } from '../../../kernel/errors';
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
    return { calendarId: calendar.id, status: 'succeeded', runId: run.id };
  }
}
