/** Opted-out numbers per organization (`hi_sms_opt_outs`), as HMACs. */
import type { Database } from '../../../platform/database/database';
import type { SmsOptOutRepository } from '../domain/sms-opt-outs';

export class KnexSmsOptOutRepository implements SmsOptOutRepository {
  constructor(private readonly db: Database) {}

  async optOut(organizationId: string, phoneHash: string, keyword: string, source: string, at: Date): Promise<void> {
    await this.db('hi_sms_opt_outs')
      .insert({ organization_id: organizationId, phone_hash: phoneHash, keyword, source, opted_out_at: at })
      .onConflict(['organization_id', 'phone_hash'])
      .ignore();
  }

  async optIn(organizationId: string, phoneHash: string): Promise<void> {
    await this.db('hi_sms_opt_outs').where({ organization_id: organizationId, phone_hash: phoneHash }).delete();
  }

  async isOptedOut(organizationId: string, phoneHash: string): Promise<boolean> {
    return (await this.db('hi_sms_opt_outs').where({ organization_id: organizationId, phone_hash: phoneHash }).first('phone_hash')) !== undefined;
  }
}
