/** Tracked calendars and their busy intervals in PostgreSQL (hi_availability_calendars, hi_availability_busy). */
import { createHash } from 'node:crypto';
import type { Database } from '../../../platform/database/database';
import type { BusyInterval, CalendarChanges, TimeRange } from '../../scheduling/domain/calendar-port';
import { failureBackoffMs, type CalendarRef, type TrackedCalendar, type TrackedCalendarStore } from '../domain/tracked-calendar';

interface CalendarRow {
  id: string;
  organization_id: string;
  connection_id: string;
  calendar_url: string;
  email: string;
  sync_state: string | null;
  synced_at: Date | string | null;
  full_synced_at: Date | string | null;
  covers_until: Date | string | null;
  last_error_code: string | null;
  failures: number;
  stopped_at: Date | string | null;
  created_at: Date | string;
}

const date = (value: Date | string | null): Date | undefined => (value === null ? undefined : new Date(value));

const toCalendar = (row: CalendarRow): TrackedCalendar => ({
  id: row.id,
  organizationId: row.organization_id,
  connectionId: row.connection_id,
  ...(row.calendar_url ? { calendarUrl: row.calendar_url } : {}),
  email: row.email,
  ...(row.sync_state ? { syncState: row.sync_state } : {}),
  ...(row.synced_at ? { syncedAt: date(row.synced_at)! } : {}),
  ...(row.full_synced_at ? { fullSyncedAt: date(row.full_synced_at)! } : {}),
  ...(row.covers_until ? { coversUntil: date(row.covers_until)! } : {}),
  ...(row.last_error_code ? { lastErrorCode: row.last_error_code } : {}),
  failures: Number(row.failures ?? 0),
  ...(row.stopped_at ? { stoppedAt: date(row.stopped_at)! } : {}),
  createdAt: new Date(row.created_at),
});

/** The id names the calendar: enrolling it again (another process, a retry) finds the same row. */
const calendarId = (ref: CalendarRef) =>
  `acal_${createHash('sha256')
    .update(`${ref.organizationId}\n${ref.connectionId}\n${ref.calendarUrl ?? ''}`)
    .digest('base64url')
    .slice(0, 24)}`;

export class KnexTrackedCalendars implements TrackedCalendarStore {
  constructor(private readonly db: Database) {}

  async enroll(ref: CalendarRef, email: string, now: Date): Promise<TrackedCalendar> {
    const row = {
      id: calendarId(ref),
      organization_id: ref.organizationId,
      connection_id: ref.connectionId,
      calendar_url: ref.calendarUrl ?? '',
      email: email.toLowerCase(),
      created_at: now,
    };
    await this.db('hi_availability_calendars').insert(row).onConflict(['organization_id', 'connection_id', 'calendar_url']).merge({ email: row.email });
    return (await this.find(ref))!;
  }

  async find(ref: CalendarRef): Promise<TrackedCalendar | undefined> {
    const row = await this.db<CalendarRow>('hi_availability_calendars')
      .where({ organization_id: ref.organizationId, connection_id: ref.connectionId, calendar_url: ref.calendarUrl ?? '' })
      .first();
    return row ? toCalendar(row) : undefined;
  }

  async get(organizationId: string, id: string): Promise<TrackedCalendar | undefined> {
    const row = await this.db<CalendarRow>('hi_availability_calendars').where({ organization_id: organizationId, id }).first();
    return row ? toCalendar(row) : undefined;
  }

  async stop(calendar: TrackedCalendar, now: Date): Promise<void> {
    await this.db.transaction(async (trx) => {
      // The calendar row first (as apply() locks it), then its busy rows.
      await trx('hi_availability_calendars')
        .where({ organization_id: calendar.organizationId, id: calendar.id })
        .whereNull('stopped_at')
        .update({ stopped_at: now, sync_state: null, synced_at: null, full_synced_at: null, covers_until: null, last_error_code: null, failures: 0 });
      await trx('hi_availability_busy').where({ organization_id: calendar.organizationId, calendar_id: calendar.id }).delete();
    });
  }

  async resume(calendar: TrackedCalendar): Promise<void> {
    await this.db('hi_availability_calendars')
      .where({ organization_id: calendar.organizationId, id: calendar.id })
      .whereNotNull('stopped_at')
      .update({ stopped_at: null, checked_at: null, failures: 0, last_error_code: null });
  }

  async byEmail(organizationId: string, email: string): Promise<TrackedCalendar[]> {
    const rows = await this.db<CalendarRow>('hi_availability_calendars').where({ organization_id: organizationId, email: email.toLowerCase() }).orderBy('id');
    return rows.map(toCalendar);
  }

  async due(before: Date, limit: number): Promise<TrackedCalendar[]> {
    const rows = await this.db<CalendarRow>('hi_availability_calendars')
      .whereNull('stopped_at')
      .where((q) => q.whereNull('checked_at').orWhere('checked_at', '<', before))
      .orderByRaw('checked_at asc nulls first')
      .limit(limit);
    return rows.map(toCalendar);
  }

  async apply(calendar: TrackedCalendar, changes: CalendarChanges, now: Date): Promise<void> {
    await this.db.transaction(async (trx) => {
      // Stopped while this sync ran: what it read is not kept (the row lock orders it against stop()).
      const following = await trx('hi_availability_calendars')
        .where({ organization_id: calendar.organizationId, id: calendar.id })
        .whereNull('stopped_at')
        .forUpdate()
        .first('id');
      if (!following) return;
      const busy = trx('hi_availability_busy').where({ organization_id: calendar.organizationId, calendar_id: calendar.id });
      if (changes.full) await busy.clone().delete();
      else {
        const touched = [...changes.removed, ...changes.changed.map((c) => c.url)];
        for (let i = 0; i < touched.length; i += 500)
          await busy
            .clone()
            .whereIn('event_url', touched.slice(i, i + 500))
            .delete();
      }
      const rows = changes.changed.flatMap((c) =>
        c.busy.map((b) => ({
          organization_id: calendar.organizationId,
          calendar_id: calendar.id,
          event_url: c.url,
          uid: b.uid ?? null,
          starts_at: b.start,
          ends_at: b.end,
        })),
      );
      for (let i = 0; i < rows.length; i += 500) await trx('hi_availability_busy').insert(rows.slice(i, i + 500));
      await trx('hi_availability_calendars')
        .where({ organization_id: calendar.organizationId, id: calendar.id })
        .update({
          sync_state: changes.state,
          synced_at: now,
          checked_at: now,
          last_error_code: null,
          failures: 0,
          ...(changes.full ? { full_synced_at: now, covers_until: changes.horizon ?? now } : {}),
        });
    });
  }

  async markFailed(calendar: TrackedCalendar, code: string, now: Date): Promise<void> {
    // synced_at stays: the cache ages out of freshness and slots are read live until a sync succeeds.
    await this.db('hi_availability_calendars')
      .where({ organization_id: calendar.organizationId, id: calendar.id })
      .whereNull('stopped_at')
      .update({ last_error_code: code, failures: calendar.failures + 1, checked_at: new Date(now.getTime() + failureBackoffMs(calendar.failures + 1)) });
  }

  async markChecked(calendar: TrackedCalendar, now: Date): Promise<void> {
    await this.db('hi_availability_calendars').where({ organization_id: calendar.organizationId, id: calendar.id }).update({ checked_at: now });
  }

  async busy(calendar: TrackedCalendar, range: TimeRange): Promise<BusyInterval[]> {
    const rows: Array<{ uid: string | null; starts_at: Date | string; ends_at: Date | string }> = await this.db('hi_availability_busy')
      .where({ organization_id: calendar.organizationId, calendar_id: calendar.id })
      .where('starts_at', '<', range.end)
      .where('ends_at', '>', range.start)
      .select('uid', 'starts_at', 'ends_at');
    return rows.map((r) => ({ start: new Date(r.starts_at), end: new Date(r.ends_at), ...(r.uid ? { uid: r.uid } : {}) }));
  }

  async list(organizationId: string, page: { limit: number; startingAfter?: string }): Promise<TrackedCalendar[]> {
    const query = this.db<CalendarRow>('hi_availability_calendars').where({ organization_id: organizationId });
    if (page.startingAfter) query.where('id', '>', page.startingAfter);
    return (await query.orderBy('id').limit(page.limit + 1)).map(toCalendar);
  }
}
