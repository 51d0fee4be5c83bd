/** Connections on knex: credentials only as AES-256-GCM ciphertext bound to organization and connection. */
import type { TokenCipher } from '../../../platform/security/token-cipher';
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import type { Connection, ConnectionRepository, ConnectionStatus } from '../domain/connection';

interface ConnectionRow {
  id: string;
  organization_id: string;
  connector: string;
  settings: unknown;
  credentials_ciphertext: string;
  status: ConnectionStatus;
  last_test_code: string | null;
  last_test_message: string | null;
  last_tested_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const fromRow = (row: ConnectionRow): Connection => ({
  id: row.id,
  organizationId: row.organization_id,
  connector: row.connector,
  settings: fromJson<Record<string, unknown>>(row.settings),
  status: row.status,
  lastTestCode: row.last_test_code,
  lastTestMessage: row.last_test_message,
  lastTestedAt: row.last_tested_at ? new Date(row.last_tested_at) : null,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** A ciphertext copied to another organization's or connection's row does not decrypt. */
const aad = (c: Pick<Connection, 'organizationId' | 'id'>) => `connection-credentials:${c.organizationId}:${c.id}`;

export class KnexConnectionRepository implements ConnectionRepository {
  constructor(
    private readonly db: Database,
    private readonly cipher: TokenCipher,
  ) {}

  async create(connection: Connection, credentials: Record<string, unknown>): Promise<void> {
    await this.db('hi_connections').insert({
      ...this.columns(connection),
      credentials_ciphertext: this.cipher.encrypt(JSON.stringify(credentials), aad(connection)),
    });
  }

  async find(organizationId: string, id: string): Promise<Connection | undefined> {
    const row = await this.db<ConnectionRow>('hi_connections').where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async list(organizationId: string): Promise<Connection[]> {
    const rows = await this.db<ConnectionRow>('hi_connections')
      .where({ organization_id: organizationId })
      .orderBy([{ column: 'created_at', order: 'desc' }, 'id']);
    return rows.map(fromRow);
  }

  async credentialsOf(connection: Connection): Promise<Record<string, unknown>> {
    const row = await this.db<ConnectionRow>('hi_connections')
      .where({ organization_id: connection.organizationId, id: connection.id })
      .first('credentials_ciphertext');
    if (!row) return {};
    return JSON.parse(this.cipher.decrypt(row.credentials_ciphertext, aad(connection))) as Record<string, unknown>;
  }

  async update(connection: Connection, credentials?: Record<string, unknown>): Promise<void> {
    const { id: _id, organization_id: _org, created_at: _created, ...columns } = this.columns(connection);
    await this.db('hi_connections')
      .where({ organization_id: connection.organizationId, id: connection.id })
      .update({ ...columns, ...(credentials ? { credentials_ciphertext: this.cipher.encrypt(JSON.stringify(credentials), aad(connection)) } : {}) });
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.db('hi_connections').where({ organization_id: organizationId, id }).delete()) > 0;
  }

  private columns(c: Connection) {
    return {
      id: c.id,
      organization_id: c.organizationId,
      connector: c.connector,
      settings: JSON.stringify(c.settings),
      status: c.status,
      last_test_code: c.lastTestCode,
      last_test_message: c.lastTestMessage,
      last_tested_at: c.lastTestedAt,
      created_at: c.createdAt,
      updated_at: c.updatedAt,
    };
  }
}
