/** The organizations' e-signature settings (hi_esign_settings): one row each, written on change; a null reminder column reads as its default. */
import type { Database } from '../../../platform/database/database';
import type { EsignSettings, EsignSettingsRepository } from '../domain/ports';
import { DEFAULT_REMINDERS, type ReminderSettings } from '../domain/reminder-schedule';

export interface ReminderColumns {
  reminders_enabled: boolean | null;
  reminder_first_after_days: number | null;
  reminder_every_days: number | null;
  reminder_expiry_notice: boolean | null;
}

interface Row extends ReminderColumns {
  organization_id: string;
  timestamp_authority_url: string | null;
  updated_at: Date;
}

/** The schedule a row (or its absence: all null) says. */
export const remindersOf = (r: Partial<ReminderColumns> | undefined): ReminderSettings => ({
  enabled: r?.reminders_enabled ?? DEFAULT_REMINDERS.enabled,
  firstAfterDays: r?.reminder_first_after_days ?? DEFAULT_REMINDERS.firstAfterDays,
  everyDays: r?.reminder_every_days ?? DEFAULT_REMINDERS.everyDays,
  expiryNotice: r?.reminder_expiry_notice ?? DEFAULT_REMINDERS.expiryNotice,
});

export class KnexEsignSettings implements EsignSettingsRepository {
  constructor(private readonly db: Database) {}

  async get(organizationId: string): Promise<EsignSettings> {
    const row = await this.db<Row>('hi_esign_settings').where({ organization_id: organizationId }).first();
    return {
      timestampAuthorityUrl: row?.timestamp_authority_url ?? null,
      reminders: remindersOf(row),
      updatedAt: row ? new Date(row.updated_at) : null,
    };
  }

  async save(organizationId: string, settings: Omit<EsignSettings, 'updatedAt'>, now: Date): Promise<EsignSettings> {
    await this.db('hi_esign_settings')
      .insert({
        organization_id: organizationId,
        timestamp_authority_url: settings.timestampAuthorityUrl,
        reminders_enabled: settings.reminders.enabled,
        reminder_first_after_days: settings.reminders.firstAfterDays,
        reminder_every_days: settings.reminders.everyDays,
        reminder_expiry_notice: settings.reminders.expiryNotice,
        updated_at: now,
      })
      .onConflict('organization_id')
      .merge();
    return { ...settings, updatedAt: now };
  }
}
