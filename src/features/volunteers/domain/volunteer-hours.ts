/**
 * Hours logged per volunteer (hris.volunteer_management, schools): each entry is one day's
 * service in whole minutes; a volunteer's total is the exact sum of the entries not voided.
 * The organization corrects an entry (day, minutes, school, activity) or voids it, with a
 * reason: the entry holds the current values, each change is kept in its history (values
 * before and after), and a revision compare-and-set refuses a correction based on a stale
 * read. The export is a `volunteer_hours.v1` CSV of a period (corrected values, voided entries
 * left out), answered for download as an action run whose reference is the file's SHA-256.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import { conflict, invalid, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import { requireLicense, type PayoutsGate } from '../../payouts/domain/license-check';
import { neutralized } from '../../payroll/domain/new-hire-file';

export const VOLUNTEER_ACTION = 'hris.volunteer_management';
export const VOLUNTEER_HOURS_FORMAT = 'volunteer_hours.v1';

export interface VolunteerHoursEntry {
  id: string;
  organizationId: string;
  /** The host's id of the volunteer (the candidate id of `volunteer.cleared`). */
  volunteerId: string;
  volunteerName: string;
  volunteerEmail: string;
  /** YYYY-MM-DD, the school's local day of the service. */
  date: string;
  minutes: number;
  school: string | null;
  activity: string | null;
  /** `voided` entries count for nothing (totals, exports) but stay, with their history. */
  status: 'logged' | 'voided';
  /** 1 when logged, + 1 for each correction or void. */
  revision: number;
  createdAt: Date;
  updatedAt: Date | null;
}

export type VolunteerHoursInput = Omit<VolunteerHoursEntry, 'id' | 'organizationId' | 'createdAt' | 'updatedAt' | 'status' | 'revision'>;

/** What a correction may change. */
export interface VolunteerHoursValues {
  date: string;
  minutes: number;
  school: string | null;
  activity: string | null;
}

/** One correction or void, kept in the entry's history. */
export interface VolunteerHoursChange {
  id: string;
  organizationId: string;
  entryId: string;
  /** The entry's revision this change produced. */
  revision: number;
  kind: 'corrected' | 'voided';
  reason: string;
  before: VolunteerHoursValues;
  /** Null for a void. */
  after: VolunteerHoursValues | null;
  changedAt: Date;
}

export interface VolunteerHoursFilter {
  volunteerId?: string;
  from?: string;
  to?: string;
  /** Voided entries too (they never count in a total). */
  includeVoided?: boolean;
}

export interface VolunteerHoursRepository {
  insert(entry: VolunteerHoursEntry): Promise<void>;
  get(organizationId: string, id: string): Promise<VolunteerHoursEntry | undefined>;
  /** Oldest day first; `from` and `to` inclusive; logged entries only unless `includeVoided`. */
  list(organizationId: string, filter: VolunteerHoursFilter): Promise<VolunteerHoursEntry[]>;
  /**
   * Writes the entry's new state and its change in one transaction, when the stored entry is
   * still at `change.revision - 1`; false when another change came first.
   */
  applyChange(entry: VolunteerHoursEntry, change: VolunteerHoursChange): Promise<boolean>;
  /** The entry's history, oldest first. */
  changes(organizationId: string, entryId: string): Promise<VolunteerHoursChange[]>;
}

export const VOLUNTEER_HOURS_REPOSITORY = Symbol('VolunteerHoursRepository');

/** The minutes of the entries not voided. */
export const totalMinutes = (entries: readonly VolunteerHoursEntry[]) => entries.reduce((sum, e) => sum + (e.status === 'logged' ? e.minutes : 0), 0);

const valuesOf = (e: VolunteerHoursEntry): VolunteerHoursValues => ({ date: e.date, minutes: e.minutes, school: e.school, activity: e.activity });

export const COLUMNS = ['format', 'volunteer_id', 'volunteer_name', 'date', 'minutes', 'school', 'activity'] as const;

export function volunteerHoursCsv(entries: readonly VolunteerHoursEntry[]): string {
  const rows = entries.map((e) =>
    [VOLUNTEER_HOURS_FORMAT, e.volunteerId, e.volunteerName, e.date, String(e.minutes), e.school ?? '', e.activity ?? ''].map(neutralized),
  );
  return stringify([[...COLUMNS], ...rows], { record_delimiter: 'windows' });
}

export class VolunteerHours {
  constructor(
    private readonly repository: VolunteerHoursRepository,
    private readonly runner: ActionRunner,
    private readonly gate: PayoutsGate,
    private readonly now: () => Date,
  ) {}

  async log(organizationId: string, input: VolunteerHoursInput): Promise<VolunteerHoursEntry> {
    await requireLicense(this.gate, organizationId, VOLUNTEER_ACTION);
    if (input.date > this.now().toISOString().slice(0, 10)) throw invalid('date_in_future', 'Hours are logged for a day that has begun', 'date');
    const entry: VolunteerHoursEntry = { id: newId('vhr'), organizationId, ...input, status: 'logged', revision: 1, createdAt: this.now(), updatedAt: null };
    await this.repository.insert(entry);
    return entry;
  }

  async list(organizationId: string, filter: VolunteerHoursFilter): Promise<VolunteerHoursEntry[]> {
    await requireLicense(this.gate, organizationId, VOLUNTEER_ACTION);
    return this.repository.list(organizationId, filter);
  }

  /** The entry and its history of corrections and voids. */
  async get(organizationId: string, id: string): Promise<{ entry: VolunteerHoursEntry; changes: VolunteerHoursChange[] }> {
    await requireLicense(this.gate, organizationId, VOLUNTEER_ACTION);
    const entry = await this.repository.get(organizationId, id);
    if (!entry) throw notFound('volunteer_hours', id);
    return { entry, changes: await this.repository.changes(organizationId, id) };
  }

  /** Corrects a logged entry; `revision`, when given, must be the one the caller read (else volunteer_hours_changed). */
  async correct(
    organizationId: string,
    id: string,
    correction: Partial<VolunteerHoursValues> & { reason: string; revision?: number },
  ): Promise<{ entry: VolunteerHoursEntry; changes: VolunteerHoursChange[] }> {
    await requireLicense(this.gate, organizationId, VOLUNTEER_ACTION);
    const entry = await this.changeable(organizationId, id, correction.revision);
    const before = valuesOf(entry);
    const after: VolunteerHoursValues = {
      date: correction.date ?? before.date,
      minutes: correction.minutes ?? before.minutes,
      school: correction.school !== undefined ? correction.school : before.school,
      activity: correction.activity !== undefined ? correction.activity : before.activity,
    };
    if (after.date > this.now().toISOString().slice(0, 10)) throw invalid('date_in_future', 'Hours are logged for a day that has begun', 'date');
    if (JSON.stringify(after) === JSON.stringify(before))
      throw invalid('correction_empty', 'The correction changes nothing: give a new date, minutes, school or activity');
    return this.apply(entry, { ...entry, ...after }, 'corrected', correction.reason, before, after);
  }

  /** Voids a logged entry: it stays, with its history, and counts for nothing. */
  async void(organizationId: string, id: string, reason: string, revision?: number): Promise<{ entry: VolunteerHoursEntry; changes: VolunteerHoursChange[] }> {
    await requireLicense(this.gate, organizationId, VOLUNTEER_ACTION);
    const entry = await this.changeable(organizationId, id, revision);
    return this.apply(entry, { ...entry, status: 'voided' }, 'voided', reason, valuesOf(entry), null);
  }

  private async changeable(organizationId: string, id: string, revision: number | undefined): Promise<VolunteerHoursEntry> {
    const entry = await this.repository.get(organizationId, id);
    if (!entry) throw notFound('volunteer_hours', id);
    if (entry.status === 'voided') throw conflict('volunteer_hours_voided', 'This entry is voided: log the hours again instead');
    if (revision !== undefined && revision !== entry.revision)
      throw conflict('volunteer_hours_changed', `The entry is at revision ${entry.revision}, not ${revision}: read it again`, { param: 'revision' });
    return entry;
  }

  private async apply(
    entry: VolunteerHoursEntry,
    next: VolunteerHoursEntry,
    kind: VolunteerHoursChange['kind'],
    reason: string,
    before: VolunteerHoursValues,
    after: VolunteerHoursValues | null,
  ): Promise<{ entry: VolunteerHoursEntry; changes: VolunteerHoursChange[] }> {
    const at = this.now();
    const updated: VolunteerHoursEntry = { ...next, revision: entry.revision + 1, updatedAt: at };
    const change: VolunteerHoursChange = {
      id: newId('vhc'),
      organizationId: entry.organizationId,
      entryId: entry.id,
      revision: updated.revision,
      kind,
      reason,
      before,
      after,
      changedAt: at,
    };
    if (!(await this.repository.applyChange(updated, change)))
      throw conflict('volunteer_hours_changed', 'The entry changed meanwhile: read it again', { param: 'revision' });
    return { entry: updated, changes: await this.repository.changes(entry.organizationId, entry.id) };
  }

  async export(
    organizationId: string,
    from: string,
    to: string,
  ): Promise<{ content: string; sha256: string; rows: number; totalMinutes: number; runId: string }> {
    await requireLicense(this.gate, organizationId, VOLUNTEER_ACTION);
    if (from > to) throw invalid('period_invalid', 'from is after to', 'from');
    const entries = await this.repository.list(organizationId, { from, to });
    const content = volunteerHoursCsv(entries);
    const sha256 = createHash('sha256').update(content, 'utf8').digest('hex');
    const run = await this.runner.perform(
      {
        organizationId,
        idempotencyKey: `volunteer-hours-${organizationId}-${from}-${to}-${sha256}`,
        action: VOLUNTEER_ACTION,
        step: 'volunteer_hours',
        connector: 'download',
        connectionId: null,
        livemode: true,
      },
      async () => ({ reference: `sha256:${sha256}`, answer: { rows: entries.length } }),
    );
    return { content, sha256, rows: entries.length, totalMinutes: totalMinutes(entries), runId: run.id };
  }
}
