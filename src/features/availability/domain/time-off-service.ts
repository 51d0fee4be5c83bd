/**
 * Time off from the host's hooks: stored (it blocks the person's interview slots from then
 * on), then written into each calendar the plugin follows for the person as an event with a
 * stable UID: replaced (SEQUENCE + 1) when the time off changes, deleted when it is
 * cancelled. Each write is an action run (step `calendar`); the same report twice is one version.
 */
import { conflict } from '../../../kernel/errors';
import { RecordedCalendar, type StepRunner } from '../../scheduling/domain/recorded-calendar';
import type { CalendarOpener } from './availability-sync';
import { payloadDigest, timeOffEvent, timeOffSpan, timeOffUid, type TimeOff, type TimeOffPayload, type TimeOffStore } from './time-off';
import { AVAILABILITY_SYNC_ACTION, type TrackedCalendarStore } from './tracked-calendar';

export interface CalendarWrite {
  calendar_id: string;
  run_id: string;
  status: string;
  error_code?: string;
}

export interface TimeOffReport extends Record<string, unknown> {
  time_off_id: string;
  status: TimeOff['status'];
  sequence: number;
  /** One entry per calendar of the person the plugin follows (none known: the time off still blocks slots). */
  calendars: CalendarWrite[];
}

export class TimeOffService {
  constructor(
    private readonly store: TimeOffStore,
    private readonly calendars: TrackedCalendarStore,
    private readonly opener: CalendarOpener,
    private readonly runner: StepRunner,
    private readonly now: () => Date,
  ) {}

  /** time_off.created and time_off.updated: both upsert (a host may send either first). */
  async record(organizationId: string, payload: TimeOffPayload): Promise<TimeOffReport> {
    const span = timeOffSpan(payload);
    const existing = await this.store.find(organizationId, payload.time_off_id);
    if (existing?.status === 'cancelled') throw conflict('time_off_cancelled', 'This time off was cancelled; report new time off under a new time_off_id');
    const digest = payloadDigest(payload);
    const timeOff: TimeOff = {
      organizationId,
      timeOffId: payload.time_off_id,
      email: payload.person.email.toLowerCase(),
      ...(payload.person.name ? { name: payload.person.name } : {}),
      start: span.start,
      end: span.end,
      allDay: span.allDay,
      timezone: payload.timezone,
      ...(payload.reason ? { reason: payload.reason } : {}),
      status: 'active',
      sequence: existing ? (existing.digest === digest ? existing.sequence : existing.sequence + 1) : 0,
      digest,
    };
    if (existing && existing.email !== timeOff.email) await this.write(existing, 'delete');
    if (!existing || existing.digest !== digest) await this.store.save(timeOff, this.now());
    return { time_off_id: timeOff.timeOffId, status: 'active', sequence: timeOff.sequence, calendars: await this.write(timeOff, 'put') };
  }

  /** time_off.cancelled: the slots are free again and the event leaves the calendars. */
  async cancel(organizationId: string, timeOffId: string): Promise<TimeOffReport> {
    const existing = await this.store.find(organizationId, timeOffId);
    if (!existing) return { time_off_id: timeOffId, status: 'cancelled', sequence: 0, calendars: [] };
    const cancelled: TimeOff = { ...existing, status: 'cancelled', sequence: existing.status === 'cancelled' ? existing.sequence : existing.sequence + 1 };
    if (existing.status !== 'cancelled') await this.store.save(cancelled, this.now());
    return { time_off_id: timeOffId, status: 'cancelled', sequence: cancelled.sequence, calendars: await this.write(cancelled, 'delete') };
  }

  private async write(timeOff: TimeOff, what: 'put' | 'delete'): Promise<CalendarWrite[]> {
    const writes: CalendarWrite[] = [];
    for (const tracked of await this.calendars.byEmail(timeOff.organizationId, timeOff.email)) {
      let runId = '';
      const runner: StepRunner = {
        perform: async (start, step) => {
          const run = await this.runner.perform({ ...start, hook: what === 'put' ? 'time_off.updated' : 'time_off.cancelled' }, step);
          runId = run.id;
          return run;
        },
      };
      try {
        const opened = await this.opener.open(tracked);
        const calendar = new RecordedCalendar(opened.calendar, runner, {
          organizationId: timeOff.organizationId,
          action: AVAILABILITY_SYNC_ACTION,
          connector: opened.connector,
          connectionId: tracked.connectionId,
          ...(tracked.calendarUrl ? { calendarUrl: tracked.calendarUrl } : {}),
          livemode: opened.livemode,
        });
        if (what === 'put') await calendar.putEvent(timeOffEvent(timeOff));
        else await calendar.deleteEvent(timeOffUid(timeOff.organizationId, timeOff.timeOffId));
        writes.push({ calendar_id: tracked.id, run_id: runId, status: 'succeeded' });
      } catch (error) {
        // The time off is stored and blocks slots whatever the calendar said; the run holds the code.
        const code = (error as { code?: unknown }).code;
        writes.push({ calendar_id: tracked.id, run_id: runId, status: 'failed', error_code: typeof code === 'string' ? code : 'connector_error' });
      }
    }
    return writes;
  }
}
