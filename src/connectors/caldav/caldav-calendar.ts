/**
 * A calendar over CalDAV (RFC 4791) with tsdav: discovery (well-known, principal, calendar
 * home), busy times (calendar-query with a time range, or free-busy-query), events the
 * plugin owns stored as `<uid>.ics` (PUT, replaced on change, DELETE), and incremental
 * sync with RFC 6578 sync-collection, falling back to the collection's ctag and a full read.
 * An organization's connection makes every request (discovery's redirects included) through
 * the pinned network, handed to tsdav as its `fetch`.
 */
import type { ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import { DAVClient, type DAVCalendar } from 'tsdav';
import type { BusyInterval, CalendarChanges, CalendarConnector, CalendarEvent, CalendarInfo, TimeRange } from '../../features/scheduling/domain/calendar-port';
import { toICalendar } from '../../features/scheduling/domain/icalendar';
import { busyFromEvents, busyFromFreeBusy, calendarZone } from './busy-times';
import { CaldavCalendarMissing, caldavFailure, CaldavHttpError } from './caldav-errors';
import type { CaldavCredentials, CaldavSettings } from './settings';

/** What `changes` hands back as `state`: opaque to callers. */
interface SyncState {
  syncToken?: string;
  ctag?: string;
}
const encodeState = (s: SyncState) => Buffer.from(JSON.stringify(s)).toString('base64url');
const decodeState = (s: string | undefined): SyncState => {
  if (!s) return {};
  try {
    return JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as SyncState;
  } catch {
    return {};
  }
};

/** How far a full read looks (a sync without a token): busy times matter ahead, not in the past. */
const FULL_READ_DAYS = 120;

export function davClient(settings: CaldavSettings, credentials: CaldavCredentials, network?: ConnectorNetwork): DAVClient {
  const fetching = network ? { fetch: network.fetch } : {};
  if ('username' in credentials) {
    return new DAVClient({ serverUrl: settings.server_url, credentials, authMethod: 'Basic', defaultAccountType: 'caldav', ...fetching });
  }
  const headers: Record<string, string> = 'bearer_token' in credentials ? { authorization: `Bearer ${credentials.bearer_token}` } : {};
  return new DAVClient({
    serverUrl: settings.server_url,
    credentials: {},
    authMethod: 'Custom',
    authFunction: async () => headers,
    defaultAccountType: 'caldav',
    ...fetching,
  });
}

const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

export class CaldavCalendarConnector implements CalendarConnector {
  private readonly client: DAVClient;
  private calendar: Promise<DAVCalendar> | undefined;
  private readonly others = new Map<string, CaldavCalendarConnector>();

  constructor(
    private readonly settings: CaldavSettings,
    private readonly credentials: CaldavCredentials,
    private readonly network?: ConnectorNetwork,
  ) {
    this.client = davClient(settings, credentials, network);
  }

  /** The account's calendar at `url` (discovery only picks among the account's own calendars). */
  withCalendar(url: string): CaldavCalendarConnector {
    const absolute = new URL(url, this.settings.server_url).href;
    if (this.settings.calendar_url && sameUrl(new URL(this.settings.calendar_url, this.settings.server_url).href, absolute)) return this;
    let other = this.others.get(absolute);
    if (!other) {
      other = new CaldavCalendarConnector({ ...this.settings, calendar_url: absolute }, this.credentials, this.network);
      this.others.set(absolute, other);
    }
    return other;
  }

  /** Discovers the server and picks the calendar (the configured one, else the first holding events). */
  async discover(): Promise<DAVCalendar> {
    await this.client.login();
    const calendars = await this.client.fetchCalendars();
    const chosen = this.settings.calendar_url
      ? calendars.find((c) => sameUrl(c.url, new URL(this.settings.calendar_url!, this.settings.server_url).href))
      : calendars.find((c) => !c.components || c.components.includes('VEVENT'));
    if (!chosen)
      throw new CaldavCalendarMissing(
        this.settings.calendar_url ? `the account has no calendar ${this.settings.calendar_url}` : 'the account has no calendar holding events',
      );
    return chosen;
  }

  async calendars(): Promise<CalendarInfo[]> {
    return this.step(async () => {
      await this.target();
      return (await this.client.fetchCalendars()).map((c) => ({
        url: c.url,
        displayName: typeof c.displayName === 'string' ? c.displayName : c.url,
        ...(c.ctag ? { ctag: c.ctag } : {}),
        ...(c.syncToken ? { syncToken: String(c.syncToken) } : {}),
      }));
    });
  }

  async busy(range: TimeRange): Promise<BusyInterval[]> {
    return this.step(async () => {
      const calendar = await this.target();
      const timeRange = { start: range.start.toISOString(), end: range.end.toISOString() };
      if (this.settings.busy_source === 'free_busy_query') {
        const answer = await this.client.freeBusyQuery({ url: calendar.url, timeRange });
        if (!answer.ok) throw new CaldavHttpError(answer.status ?? 500, 'free-busy-query');
        return busyFromFreeBusy(String(answer.raw ?? ''));
      }
      const objects = await this.client.fetchCalendarObjects({ calendar, timeRange });
      return objects.flatMap((o) => (typeof o.data === 'string' ? busyFromEvents(o.data, range, this.zoneOf(calendar)) : []));
    });
  }

  async putEvent(event: CalendarEvent): Promise<{ url: string; etag?: string }> {
    return this.step(async () => {
      const calendar = await this.target();
      const url = this.urlOf(calendar, event.uid);
      // A plain PUT creates or replaces: the plugin owns this resource, its UID names it.
      const response = await this.client.updateCalendarObject({ calendarObject: { url, data: toICalendar(event) } });
      if (!response.ok) throw new CaldavHttpError(response.status, `PUT ${url}`);
      const etag = response.headers.get('etag');
      return { url, ...(etag ? { etag } : {}) };
    });
  }

  async deleteEvent(uid: string): Promise<void> {
    return this.step(async () => {
      const calendar = await this.target();
      const url = this.urlOf(calendar, uid);
      const response = await this.client.deleteCalendarObject({ calendarObject: { url } });
      if (!response.ok && response.status !== 404) throw new CaldavHttpError(response.status, `DELETE ${url}`);
    });
  }

  async changes(state?: string): Promise<CalendarChanges> {
    return this.step(async () => {
      const calendar = await this.target(true);
      const previous = decodeState(state);
      const now = new Date();
      const range = { start: now, end: new Date(now.getTime() + FULL_READ_DAYS * 86_400_000) };
      const next: SyncState = { ...(calendar.syncToken ? { syncToken: String(calendar.syncToken) } : {}), ...(calendar.ctag ? { ctag: calendar.ctag } : {}) };
      if (previous.syncToken && calendar.syncToken) {
        const incremental = await this.incremental(calendar, previous.syncToken, range).catch(() => undefined);
        if (incremental) return { ...incremental, state: encodeState({ ...next, syncToken: incremental.token }) };
      } else if (previous.ctag && previous.ctag === calendar.ctag) {
        return { state: encodeState(next), full: false, changed: [], removed: [] };
      }
      const objects = await this.client.fetchCalendarObjects({ calendar, timeRange: { start: range.start.toISOString(), end: range.end.toISOString() } });
      return {
        state: encodeState(next),
        full: true,
        horizon: range.end,
        changed: objects.map((o) => ({ url: o.url, busy: typeof o.data === 'string' ? busyFromEvents(o.data, range, this.zoneOf(calendar)) : [] })),
        removed: [],
      };
    });
  }

  private async incremental(calendar: DAVCalendar, syncToken: string, range: TimeRange) {
    const responses = await this.client.syncCollection({ url: calendar.url, props: { 'd:getetag': {} }, syncLevel: 1, syncToken });
    // tsdav answers a refused REPORT (RFC 6578 §3.2: 403 valid-sync-token for a token the server
    // no longer knows) as an entry without a multistatus rather than throwing: the caller reads in full.
    const refused = responses.find((r) => !r.raw?.multistatus);
    if (refused) throw new CaldavHttpError(refused.status ?? 500, 'sync-collection');
    const token = responses.find((r) => r.raw?.multistatus?.syncToken)?.raw?.multistatus?.syncToken as string | undefined;
    const base = new URL(calendar.url);
    const removed: string[] = [];
    const changedUrls: string[] = [];
    for (const r of responses) {
      if (!r.href) continue;
      const url = new URL(r.href, base).href;
      if (r.status === 404 || /404/.test(String((r.raw as any)?.multistatus?.response?.status ?? ''))) removed.push(url);
      else changedUrls.push(url);
    }
    const fetched = changedUrls.length
      ? await this.client.calendarMultiGet({ url: calendar.url, props: { 'd:getetag': {}, 'c:calendar-data': {} }, objectUrls: changedUrls, depth: '1' })
      : [];
    const changed = fetched.map((f) => {
      const data = (f.props?.calendarData as { _cdata?: string } | string | undefined) ?? '';
      const text = typeof data === 'string' ? data : (data._cdata ?? '');
      return { url: new URL(f.href ?? '', base).href, busy: text ? busyFromEvents(text, range, this.zoneOf(calendar)) : [] };
    });
    return { token: token ?? syncToken, full: false, changed, removed };
  }

  /** Whose days all-day events are: the calendar's own CALDAV:calendar-timezone, else the connection's `timezone`, else UTC. */
  private zoneOf(calendar: DAVCalendar): string {
    return calendarZone(calendar.timezone) ?? this.settings.timezone ?? 'UTC';
  }

  private urlOf(calendar: DAVCalendar, uid: string): string {
    return new URL(`${encodeURIComponent(uid)}.ics`, calendar.url.endsWith('/') ? calendar.url : `${calendar.url}/`).href;
  }

  /** The calendar, discovered once per connector; `fresh` re-reads its ctag and sync token. */
  private async target(fresh = false): Promise<DAVCalendar> {
    if (!this.calendar || fresh) {
      const attempt = this.discover();
      this.calendar = attempt;
      attempt.catch(() => {
        if (this.calendar === attempt) this.calendar = undefined;
      });
    }
    return this.calendar;
  }

  private async step<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw caldavFailure(error);
    }
  }
}
