/**
 * Hours logged per volunteer (hris.volunteer_management, schools): each entry is one day's
 * service in whole minutes; a volunteer's total is the exact sum. The export is a
 * `volunteer_hours.v1` CSV of a period, answered for download as an action run whose reference
 * is the file's SHA-256.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import { invalid } from '../../../kernel/errors';
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
  createdAt: Date;
}

export type VolunteerHoursInput = Omit<VolunteerHoursEntry, 'id' | 'organizationId' | 'createdAt'>;

export interface VolunteerHoursRepository {
  insert(entry: VolunteerHoursEntry): Promise<void>;
  /** Oldest day first; `from` and `to` inclusive. */
  list(organizationId: string, filter: { volunteerId?: string; from?: string; to?: string }): Promise<VolunteerHoursEntry[]>;
}

export const VOLUNTEER_HOURS_REPOSITORY = Symbol('VolunteerHoursRepository');

export const totalMinutes = (entries: readonly VolunteerHoursEntry[]) => entries.reduce((sum, e) => sum + e.minutes, 0);

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
    const entry: VolunteerHoursEntry = { id: newId('vhr'), organizationId, ...input, createdAt: this.now() };
    await this.repository.insert(entry);
    return entry;
  }

  async list(organizationId: string, filter: { volunteerId?: string; from?: string; to?: string }): Promise<VolunteerHoursEntry[]> {
    await requireLicense(this.gate, organizationId, VOLUNTEER_ACTION);
    return this.repository.list(organizationId, filter);
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
