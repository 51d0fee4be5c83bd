/** TOTP factors on knex: the secret sealed (bound to organization and factor id), counters moved by conditional UPDATEs. */
import type { Database } from '../../../platform/database/database';
import type { TokenCipher } from '../../../platform/security/token-cipher';
import type { TotpFactor, TotpFactorRepository } from '../domain/totp-factor';

interface FactorRow {
  id: string;
  organization_id: string;
  identity_hash: string;
  secret_ciphertext: string;
  status: TotpFactor['status'];
  failed_attempts: number;
  locked_until: Date | null;
  last_step: string | number | null;
  created_at: Date;
  updated_at: Date;
}

const fromRow = (row: FactorRow): TotpFactor => ({
  id: row.id,
  organizationId: row.organization_id,
  identityHash: row.identity_hash,
  status: row.status,
  failedAttempts: Number(row.failed_attempts),
  lockedUntil: row.locked_until ? new Date(row.locked_until) : null,
  lastStep: row.last_step === null ? null : Number(row.last_step),
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

const aad = (organizationId: string, id: string) => `totp:${organizationId}:${id}`;

export class KnexTotpFactorRepository implements TotpFactorRepository {
  constructor(
    private readonly db: Database,
    private readonly cipher: TokenCipher,
  ) {}

  async enroll(factor: TotpFactor, secret: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      await trx('hi_totp_factors').where({ organization_id: factor.organizationId, identity_hash: factor.identityHash }).delete();
      await trx('hi_totp_factors').insert({
        id: factor.id,
        organization_id: factor.organizationId,
        identity_hash: factor.identityHash,
        secret_ciphertext: this.cipher.encrypt(secret, aad(factor.organizationId, factor.id)),
        status: factor.status,
        failed_attempts: 0,
        locked_until: null,
        last_step: null,
        created_at: factor.createdAt,
        updated_at: factor.updatedAt,
      });
    });
  }

  async findByIdentity(organizationId: string, identityHash: string): Promise<{ factor: TotpFactor; secret: string } | undefined> {
    const row = await this.db<FactorRow>('hi_totp_factors').where({ organization_id: organizationId, identity_hash: identityHash }).first();
    if (!row) return undefined;
    return { factor: fromRow(row), secret: this.cipher.decrypt(row.secret_ciphertext, aad(row.organization_id, row.id)) };
  }

  async get(organizationId: string, id: string): Promise<TotpFactor | undefined> {
    const row = await this.db<FactorRow>('hi_totp_factors').where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async countAttempt(organizationId: string, id: string, at: Date): Promise<TotpFactor | undefined> {
    const [row] = await this.db<FactorRow>('hi_totp_factors')
      .where({ organization_id: organizationId, id })
      .where((q) => q.whereNull('locked_until').orWhere('locked_until', '<=', at))
      .update({
        // A lock that lapsed starts a fresh count.
        failed_attempts: this.db.raw('case when locked_until is null then failed_attempts + 1 else 1 end'),
        locked_until: null,
        updated_at: at,
      } as never)
      .returning('*');
    return row ? fromRow(row as FactorRow) : undefined;
  }

  async accept(organizationId: string, id: string, step: number, at: Date): Promise<boolean> {
    const updated = await this.db('hi_totp_factors')
      .where({ organization_id: organizationId, id })
      .where((q) => q.whereNull('last_step').orWhere('last_step', '<', step))
      .update({ status: 'verified', failed_attempts: 0, last_step: step, updated_at: at });
    return Number(updated) === 1;
  }

  async lock(organizationId: string, id: string, until: Date): Promise<void> {
    await this.db('hi_totp_factors').where({ organization_id: organizationId, id }).update({ locked_until: until, updated_at: new Date() });
  }
}
