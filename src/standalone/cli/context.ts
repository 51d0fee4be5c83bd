/**
 * What every CLI command module gets: configuration (loaded on first use, so `--help`
 * works with a broken environment), the database, and one output convention (`--json`
 * prints exactly one JSON object on stdout; otherwise a human sentence).
 */
import type { Command } from 'commander';
import type { Config } from '../../kernel/config';
import type { Database } from '../../platform/database/database';
import { BusyError } from './busy-error';

export interface CliContext {
  config(): Config;
  /** Opens the database (migrated), runs `run`, closes it. Refuses while the embedded server holds DATA_DIR. */
  withDatabase<T>(run: (db: Database, migrationsApplied: number) => Promise<T>, options?: { hostTables?: boolean }): Promise<T>;
  /** Prints `value` as JSON with --json, else `text`. */
  print(options: { json?: boolean }, text: string, value: object): void;
}

export interface CommandModule {
  register(program: Command, context: CliContext): void;
}

/** A command group (`org`, `key`, `listing`, …), shared by every module that adds subcommands to it. */
export function group(program: Command, name: string, description: string): Command {
  return program.commands.find((c) => c.name() === name) ?? program.command(name).description(description);
}

export function cliContext(loadConfig: () => Config): CliContext {
  let config: Config | undefined;
  const context: CliContext = {
    config: () => (config ??= loadConfig()),
    async withDatabase(run, options = {}) {
      const c = context.config();
      // Loaded when a command opens the database, not for --help (knex, PGlite, the host's migrations).
      const [{ embeddedServerPid }, { createDatabase }, { migrateAll }] = await Promise.all([
        import('../host/embedded-lock'),
        import('../../platform/database/database'),
        import('../host/standalone-host'),
      ]);
      if (!c.databaseUrl) {
        const pid = embeddedServerPid(c.dataDir);
        if (pid) throw new BusyError(`the embedded server (pid ${pid}) holds ${c.dataDir}; stop it first, or use the HTTP API`);
      }
      const db = createDatabase({ databaseUrl: c.databaseUrl, dataDir: c.dataDir, poolMax: 2 });
      try {
        const applied = await migrateAll(db, { hostTables: options.hostTables, progress: (message) => process.stderr.write(`${message}\n`) });
        return await run(db, applied);
      } finally {
        await db.destroy();
      }
    },
    print(options, text, value) {
      process.stdout.write(options.json ? `${JSON.stringify(value)}\n` : `${text}\n`);
    },
  };
  return context;
}
