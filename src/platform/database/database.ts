/**
 * The database factory: PostgreSQL through pg when DATABASE_URL is set, otherwise an
 * embedded PGlite folder through knex-pglite. The same migrations and queries run on both.
 */
import path from 'node:path';
import knex, { type Knex } from 'knex';
import type { Logger } from '../../kernel/logger';
import { OutageLog } from '../observability/outage-log';
import { makePrivateFolder } from './private-folder';

export type Database = Knex;

export interface DatabaseOptions {
  databaseUrl?: string;
  /** Embedded mode: folder of the PGlite database; `memory` keeps it in memory. */
  dataDir?: string | 'memory';
  poolMax?: number;
  /** knex's own warnings go here (as JSON), and a connection outage is logged once per state change. */
  logger?: Logger;
}

/** knex's messages through our logger; connection failures only through the outage log. */
function knexLog(logger: Logger | undefined, outage: OutageLog | undefined): Knex.Config['log'] {
  if (!logger) return undefined;
  return {
    warn: (message: unknown) => {
      const text = String(message);
      if (/^Acquire connection error|^Connection Error/.test(text)) outage?.down(text.split('\n')[0]);
      else logger.warn({ component: 'knex' }, text.slice(0, 1000));
    },
    error: (message: unknown) => logger.error({ component: 'knex' }, String(message).slice(0, 1000)),
    deprecate: (message: unknown) => logger.debug({ component: 'knex' }, String(message)),
    debug: (message: unknown) => logger.debug({ component: 'knex' }, String(message).slice(0, 1000)),
  };
}

export function createDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    const outage = options.logger ? new OutageLog(options.logger, 'database') : undefined;
    const db = knex({
      client: 'pg',
      connection: { connectionString: options.databaseUrl, application_name: 'hiring-integrations', connectionTimeoutMillis: 5_000 },
      pool: { min: 0, max: options.poolMax ?? 10 },
      // Short enough that a request in a database outage answers 503 within seconds.
      acquireConnectionTimeout: 5_000,
      log: knexLog(options.logger, outage),
    });
    const pool = (db.client as { pool?: { on(event: string, listener: (...args: unknown[]) => void): void } }).pool;
    pool?.on('createFail', (_id, error) => outage?.down(error));
    pool?.on('createSuccess', () => outage?.up());
    return db;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ClientPgLite = require('knex-pglite');
  let connection: object = {};
  if (options.dataDir && options.dataDir !== 'memory') {
    const folder = path.join(options.dataDir, 'pglite');
    makePrivateFolder(path.dirname(folder));
    connection = { filename: folder };
  }
  return knex({ client: ClientPgLite, dialect: 'postgres', connection, log: knexLog(options.logger, undefined) });
}

/**
 * PGlite: createDatabase passes knex-pglite's client class; a server is named by a string,
 * and knex takes 'pg', 'postgres' and 'postgresql' alike (an embedding host may use any).
 */
export function isEmbedded(db: Database): boolean {
  const { client } = db.client.config;
  return typeof client !== 'string' || !['pg', 'postgres', 'postgresql'].includes(client);
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
