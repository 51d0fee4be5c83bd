/** Organizations' reminder schedules on knex. */
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import type { ComplianceSettingsStore } from '../domain/compliance-settings';
import type { ComplianceSettings } from '../domain/reminder-schedule';

const TABLE = 'hi_compliance_settings';

export class KnexComplianceSettings implements ComplianceSettingsStore {
  constructor(private readonly db: Database) {}

  async get(organizationId: string): Promise<ComplianceSettings | undefined> {
    return (await this.getMany([organizationId])).get(organizationId);
  }

  async getMany(organizationIds: string[]): Promise<Map<string, ComplianceSettings>> {
    if (organizationIds.length === 0) return new Map();
    const rows = await this.db(TABLE).whereIn('organization_id', organizationIds).select('organization_id', 'reminder_days');
    return new Map(
      rows.map((r: { organization_id: string; reminder_days: unknown }) => [r.organization_id, { reminderDays: fromJson<number[]>(r.reminder_days) }]),
    );
  }

  async put(organizationId: string, settings: ComplianceSettings, now: Date): Promise<void> {
    await this.db(TABLE)
      .insert({ organization_id: organizationId, reminder_days: JSON.stringify(settings.reminderDays), updated_at: now })
      .onConflict('organization_id')
      .merge(['reminder_days', 'updated_at']);
  }
}
