import { inject, injectable } from 'tsyringe';
import type { ProfileApplySettings, ProfileApplySettingsRepository, ProfileApplyTheme } from '../domain/profile-apply-settings';
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { DATABASE } from '../../../platform/database/tokens';

interface SettingsRow {
  organization_id: string;
  enabled: boolean;
  allowed_origins: unknown;
  return_urls?: unknown;
  button_text: string;
  theme: string;
  updated_at: Date;
}

@injectable()
export class KnexProfileApplySettingsRepository implements ProfileApplySettingsRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async find(organizationId: string): Promise<ProfileApplySettings | undefined> {
    const row = await this.db<SettingsRow>('hi_profile_apply_settings').where({ organization_id: organizationId }).first();
    if (!row) return undefined;
    return {
      organizationId: row.organization_id,
      enabled: row.enabled,
      allowedOrigins: fromJson<string[]>(row.allowed_origins),
      returnUrls: row.return_urls === undefined || row.return_urls === null ? [] : fromJson<string[]>(row.return_urls),
      buttonText: row.button_text,
      theme: row.theme as ProfileApplyTheme,
      updatedAt: new Date(row.updated_at),
    };
  }

  async save(settings: ProfileApplySettings): Promise<void> {
    await this.db('hi_profile_apply_settings')
      .insert({
        organization_id: settings.organizationId,
        enabled: settings.enabled,
        allowed_origins: JSON.stringify(settings.allowedOrigins),
        return_urls: JSON.stringify(settings.returnUrls),
        button_text: settings.buttonText,
        theme: settings.theme,
        updated_at: settings.updatedAt ?? new Date(),
      })
      .onConflict('organization_id')
      .merge();
  }
}
