/**
 * The database factory: PostgreSQL through pg when DATABASE_URL is set, otherwise an
 * embedded PGlite folder through knex-pglite. The same migrations and queries run on both.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';

export type Database = Knex;

export interface DatabaseOptions {
  databaseUrl?: string;
  /** Embedded mode: folder of the PGlite database; `memory` keeps it in memory. */
  dataDir?: string | 'memory';
  poolMax?: number;
}

export function createDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    return knex({
      client: 'pg',
      connection: { connectionString: options.databaseUrl, application_name: 'hiring-integrations' },
      pool: { min: 0, max: options.poolMax ?? 10 },
      acquireConnectionTimeout: 10_000,
    });
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ClientPgLite = require('knex-pglite');
  let connection: object = {};
  if (options.dataDir && options.dataDir !== 'memory') {
    const folder = path.join(options.dataDir, 'pglite');
    mkdirSync(path.dirname(folder), { recursive: true });
    connection = { filename: folder };
  }
  return knex({ client: ClientPgLite, dialect: 'postgres', connection });
}

export function isEmbedded(db: Database): boolean {
  return db.client.config.client !== 'pg';
}

/** How many rows a knex delete removed: pg answers a number, knex-pglite its raw result. */
export function deletedRows(result: unknown): number {
  if (typeof result === 'number') return result;
  const raw = result as { affectedRows?: number; rowCount?: number } | undefined;
  return raw?.affectedRows ?? raw?.rowCount ?? 0;
}

/** Postgres unique_violation, as raised by pg and PGlite alike. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code !== '23505') return false;
  return constraint === undefined || e.constraint === constraint || (e.message ?? '').includes(constraint);
}
