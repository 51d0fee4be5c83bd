import { inject, injectable } from 'tsyringe';
import type { OutboxMessage } from '../../../kernel/outbox';
import { LIVE_LICENSE_STATUSES, sourceKey, type License, type LicenseStatus } from '../domain/license';
import { licenseStatusesAllowing, nextLicenseStatus } from '../domain/license-state-machine';
import type { CreateResult, LicenseRepository, LicenseTransition } from '../domain/ports';
import { isUniqueViolation, type Database } from '../../../platform/database/database';
import { licenseFromRow, licenseToRow, licenseTransitionColumns, type LicenseRow } from './license-rows';
import { writeOutbox } from '../../events/storage/outbox-writer';
import { DATABASE } from '../../../platform/database/tokens';

export const ONE_LIVE_LICENSE = 'hi_licenses_one_live';

@injectable()
export class KnexLicenseRepository implements LicenseRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async create(license: License, messages: readonly OutboxMessage[]): Promise<CreateResult<License>> {
    try {
      await this.db.transaction(async (trx) => {
        await trx('hi_licenses').insert(licenseToRow(license));
        await writeOutbox(trx, messages);
      });
      return { created: true, value: license };
    } catch (error) {
      if (!isUniqueViolation(error, ONE_LIVE_LICENSE)) throw error;
      const existing = await this.findLive(license.organizationId, license.actionKey, sourceKey(license.source));
      if (!existing) throw error;
      return { created: false, value: existing };
    }
  }

  async findById(licenseId: string): Promise<License | undefined> {
    const row = await this.db<LicenseRow>('hi_licenses').where({ id: licenseId }).first();
    return row ? licenseFromRow(row) : undefined;
  }

  async findLive(organizationId: string, actionKey: string, source: string): Promise<License | undefined> {
    const row = await this.db<LicenseRow>('hi_licenses')
      .where({ organization_id: organizationId, action_key: actionKey, source })
      .whereIn('status', LIVE_LICENSE_STATUSES)
      .first();
    return row ? licenseFromRow(row) : undefined;
  }

  async list(organizationId: string, filter: { status?: LicenseStatus; actionKey?: string } = {}): Promise<License[]> {
    let query = this.db<LicenseRow>('hi_licenses').where({ organization_id: organizationId }).orderBy('seq', 'desc');
    if (filter.status) query = query.where({ status: filter.status });
    if (filter.actionKey) query = query.where({ action_key: filter.actionKey });
    return (await query).map(licenseFromRow);
  }

  async organizationsAwaitingConnection(): Promise<string[]> {
    const rows = await this.db('hi_licenses').where({ status: 'requires_connection' }).distinct('organization_id');
    return rows.map((r: { organization_id: string }) => r.organization_id);
  }

  async listLive(organizationId: string): Promise<License[]> {
    const rows = await this.db<LicenseRow>('hi_licenses').where({ organization_id: organizationId }).whereIn('status', LIVE_LICENSE_STATUSES).orderBy('seq');
    return rows.map(licenseFromRow);
  }

  async hasActive(organizationId: string, actionKey: string): Promise<boolean> {
    const row = await this.db('hi_licenses').where({ organization_id: organizationId, action_key: actionKey, status: 'active' }).first('id');
    return Boolean(row);
  }

  async hasOtherLive(organizationId: string, actionKey: string, exceptLicenseId: string): Promise<boolean> {
    const row = await this.db('hi_licenses')
      .where({ organization_id: organizationId, action_key: actionKey })
      .whereIn('status', LIVE_LICENSE_STATUSES)
      .whereNot({ id: exceptLicenseId })
      .first('id');
    return Boolean(row);
  }

  async transition(licenseId: string, transition: LicenseTransition, messages: readonly OutboxMessage[] = []): Promise<License | undefined> {
    return this.db.transaction(async (trx) => {
      const row = await trx<LicenseRow>('hi_licenses')
        .where({ id: licenseId })
        .whereIn('status', licenseStatusesAllowing(transition.event))
        .forUpdate()
        .first();
      if (!row) return undefined;
      const next = nextLicenseStatus(row.status, transition.event)!;
      const [updated] = await trx<LicenseRow>('hi_licenses')
        .where({ id: licenseId })
        .update(licenseTransitionColumns(next, transition.at, transition.failureReason))
        .returning('*');
      await writeOutbox(trx, messages);
      return licenseFromRow(updated as LicenseRow);
    });
  }
}
