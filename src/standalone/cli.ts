/**
 * The operator CLI, `hiring-integrations <command>`, on commander. Command modules live
 * in ./commands (one per area) and register into one program. Exit codes: 0 success,
 * 1 failure (the operation could not be done), 2 usage (bad arguments or configuration).
 * Usage errors print the message and the command's help; runtime errors one line; never
 * a stack trace. A `.env` file in the working directory is read first (variables already
 * set in the environment win).
 */
import 'reflect-metadata';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { loadConfig, ConfigError } from '../config';
import { isDomainError } from '../domain/shared/errors';
import { PACKAGE_ROOT } from '../manifest/manifest';
import { UsageError } from './args';
import { COMMAND_MODULES } from './commands';
import { cliContext } from './commands/context';

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

const OVERVIEW = `
Commands at a glance:
  serve [--port N] [--no-worker] [--demo]  the API (+ job workers in this process unless --no-worker with Redis)
  worker                                   BullMQ workers for every queue (needs REDIS_URL)
  migrate [--json]                         apply database migrations
  org create --name NAME [--json]          create an organization; prints its id and API key (shown once)
  key rotate --org ORG_ID [--json]         a new API key; older keys keep working for the grace period
  key revoke --key KEY_OR_PREFIX [--json]  revoke an API key at once
  listing create --org ORG_ID --title TITLE [--questions JSON] [--json]
  catalog sync [--file FILE] [--json]      load a catalog document

Run "hiring-integrations <command> --help" for a command's options and examples.

--json prints exactly one JSON object on stdout (errors still go to stderr as one line).
Exit codes: 0 success, 1 failure, 2 usage error (bad arguments or configuration).
Configuration comes from the environment and from ./.env (see README.md, Configuration).`;

/** Reads ./.env into process.env (Node's own loader); variables already set win. */
export function loadDotEnv(file = path.resolve('.env')): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

function version(): string {
  return (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

export function buildProgram(): Command {
  const program = new Command('hiring-integrations')
    .description('Self-hostable ATS plugin: profile applications and integration licenses')
    .version(version(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .exitOverride()
    .showHelpAfterError()
    .addHelpText('after', OVERVIEW);
  const context = cliContext(() => loadConfig());
  for (const module of COMMAND_MODULES) module.register(program, context);
  // Every group shows its subcommands when called bare, as a usage error.
  for (const command of program.commands) command.exitOverride().showHelpAfterError();
  return program;
}

function fail(code: number, line: string): void {
  process.stderr.write(`${line}\n`);
  process.exitCode = code;
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  // -v is the usual short form of --version too.
  const args = argv.length === 1 && argv[0] === '-v' ? ['--version'] : argv;
  try {
    loadDotEnv();
    const program = buildProgram();
    if (args.length === 0) {
      program.outputHelp();
      return;
    }
    await program.parseAsync(args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has printed the message (and the help); only the exit code is left.
      const shown = error.code === 'commander.helpDisplayed' || error.code === 'commander.version';
      process.exitCode = shown ? EXIT.ok : EXIT.usage;
    } else if (error instanceof UsageError) {
      fail(EXIT.usage, `error: ${error.message}`);
    } else if (error instanceof ConfigError) {
      fail(EXIT.usage, `configuration error: ${error.message}`);
    } else if (isDomainError(error)) {
      fail(error.kind === 'invalid' ? EXIT.usage : EXIT.failure, `error: ${error.message} (${error.code})`);
    } else {
      fail(EXIT.failure, `error: ${(error as Error).message}`);
    }
  }
}

if (require.main === module) void main();
