/**
 * The first line `serve` prints, before anything slow loads or starts: the embedded database
 * takes many seconds to create on a first start (and the server's modules a moment to load),
 * and a silent terminal looks hung.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../kernel/config';

export function startProgress(config: Config): string {
  if (config.databaseUrl) return 'hiring-integrations: starting on PostgreSQL…\n';
  const folder = path.join(config.dataDir, 'pglite');
  return existsSync(folder)
    ? `hiring-integrations: starting (embedded database in ${folder})…\n`
    : `hiring-integrations: first start: creating the embedded database in ${folder} (once; this can take half a minute)…\n`;
}
