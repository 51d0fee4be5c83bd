/** The organizations' e-signature settings (hi_esign_settings): one row each, written on change. */
import type { Database } from '../../../platform/database/database';
import type { EsignSettings, EsignSettingsRepository } from '../domain/ports';

interface Row {
  organization_id: string;
  timestamp_authority_url: string | null;
  updated_at: Date;
}

export class KnexEsignSettings implements EsignSettingsRepository {
  constructor(private readonly db: Database) {}

  async get(organizationId: string): Promise<EsignSettings> {
    const row = await this.db<Row>('hi_esign_settings').where({ organization_id: organizationId }).first();
    return { timestampAuthorityUrl: row?.timestamp_authority_url ?? null, updatedAt: row ? new Date(row.updated_at) : null };
  }

  async save(organizationId: string, settings: { timestampAuthorityUrl: string | null }, now: Date): Promise<EsignSettings> {
    await this.db('hi_esign_settings')
      .insert({ organization_id: organizationId, timestamp_authority_url: settings.timestampAuthorityUrl, updated_at: now })
      .onConflict('organization_id')
      .merge();
    return { timestampAuthorityUrl: settings.timestampAuthorityUrl, updatedAt: now };
  }
}
