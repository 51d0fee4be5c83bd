/** Organizations' board secrets on knex (hi_board_secrets), encrypted at rest (AES-256-GCM bound to the organization). */
import type { Database } from '../../../platform/database/database';
import type { TokenCipher } from '../../../platform/security/token-cipher';
import type { BoardSecret, BoardSecretStore } from '../domain/board-application';

interface SecretRow {
  organization_id: string;
  id: string;
  secret_ciphertext: string;
  previous_ciphertext: string | null;
  previous_valid_until: Date | null;
  created_at: Date;
  rotated_at: Date | null;
}

const TABLE = 'hi_board_secrets';

export class KnexBoardSecretStore implements BoardSecretStore {
  constructor(
    private readonly db: Database,
    private readonly cipher: TokenCipher,
  ) {}

  private readonly aad = (organizationId: string) => `board-secret:${organizationId}`;

  private fromRow(row: SecretRow): BoardSecret {
    const aad = this.aad(row.organization_id);
    return {
      id: row.id,
      organizationId: row.organization_id,
      secret: this.cipher.decrypt(row.secret_ciphertext, aad),
      previous:
        row.previous_ciphertext && row.previous_valid_until
          ? { secret: this.cipher.decrypt(row.previous_ciphertext, aad), validUntil: new Date(row.previous_valid_until) }
          : null,
      createdAt: new Date(row.created_at),
      rotatedAt: row.rotated_at ? new Date(row.rotated_at) : null,
    };
  }

  async find(organizationId: string): Promise<BoardSecret | undefined> {
    const row = await this.db<SecretRow>(TABLE).where({ organization_id: organizationId }).first();
    return row ? this.fromRow(row) : undefined;
  }

  async put(organizationId: string, id: string, secret: string, at: Date, previousValidUntil: Date): Promise<BoardSecret> {
    const ciphertext = this.cipher.encrypt(secret, this.aad(organizationId));
    // One statement: a first secret is inserted; a rotation keeps the current one as the previous.
    const rows = await this.db<SecretRow>(TABLE)
      .insert({ organization_id: organizationId, id, secret_ciphertext: ciphertext, created_at: at })
      .onConflict('organization_id')
      .merge({
        id,
        previous_ciphertext: this.db.raw('hi_board_secrets.secret_ciphertext'),
        previous_valid_until: previousValidUntil,
        secret_ciphertext: ciphertext,
        rotated_at: at,
      } as never)
      .returning('*');
    return this.fromRow(rows[0] as SecretRow);
  }
}
