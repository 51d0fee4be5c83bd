/**
 * The operator CLI, `hiring-integrations <command>`, on commander. Command modules live
 * in ./commands (one per area) and register into one program. Exit codes: 0 success,
 * 1 failure (the operation could not be done), 2 usage (bad arguments or configuration), 75
 * busy (the embedded server holds the data folder: stop it or use the HTTP API, then retry;
 * EX_TEMPFAIL of sysexits.h).
 * Usage errors print the message and the command's help; runtime errors one line; never
 * a stack trace. A `.env` file in the working directory is read first (variables already
 * set in the environment win).
 */
import 'reflect-metadata';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../../kernel/config/config-error';
import { isDomainError } from '../../kernel/errors';
import { PACKAGE_ROOT } from '../../platform/manifest/manifest';
import { BusyError } from './busy-error';
import { UsageError } from './usage-error';
import { COMMAND_MODULES } from './command-modules';
import { cliContext } from './context';

export const EXIT = { ok: 0, failure: 1, usage: 2, busy: 75 } as const;

const FOOTER = `
Run "hiring-integrations <command> --help" for a command's options and examples
(in a clone of the repository: npm run cli -- <command>).

--json prints exactly one JSON object on stdout (errors still go to stderr as one line).
Exit codes: 0 success, 1 failure, 2 usage error (bad arguments or configuration),
75 busy (the embedded server holds DATA_DIR: stop it or use the HTTP API, then retry).
Configuration comes from the environment and from ./.env (see docs/configuration.md).`;

/** Every runnable command with its options, generated, so commands added by any module appear. */
function overview(program: Command): string {
  const rows: [string, string][] = [];
  const visit = (command: Command, prefix: string) => {
    const subcommands = command.commands.filter((c) => c.name() !== 'help');
    if (subcommands.length > 0) return subcommands.forEach((sub) => visit(sub, `${prefix}${command.name()} `));
    const options = command.options
      .filter((o) => !o.hidden && o.long !== '--help')
      .map((o) => (o.mandatory ? o.flags.replace(/^-\w, /, '') : `[${o.flags.replace(/^-\w, /, '')}]`));
    rows.push([`${prefix}${command.name()} ${options.join(' ')}`.trim(), command.description().split(/[.;(]/)[0]!.trim()]);
  };
  program.commands.filter((c) => c.name() !== 'help').forEach((c) => visit(c, ''));
  const width = Math.min(48, Math.max(...rows.map(([usage]) => usage.length)));
  return `\nCommands at a glance:\n${rows.map(([usage, text]) => (usage.length > width ? `  ${usage}\n  ${' '.repeat(width)}  ${text}` : `  ${usage.padEnd(width)}  ${text}`)).join('\n')}\n`;
}

/** Reads ./.env into process.env (Node's own loader); variables already set win. */
export function loadDotEnv(file = path.resolve('.env')): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

function version(): string {
  return (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

export function buildProgram(): Command {
  const program: Command = new Command('hiring-integrations')
    .description('Self-hostable ATS plugin: profile applications and integration licenses')
    .version(version(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .exitOverride()
    .showHelpAfterError()
    .addHelpText('after', (): string => `${overview(program)}${FOOTER}`);
  // The schema (zod) is loaded when a command needs the configuration, not for --help.
  const context = cliContext(() => (require('../../kernel/config') as typeof import('../../kernel/config')).loadConfig()); // eslint-disable-line @typescript-eslint/no-require-imports
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
    } else if (error instanceof BusyError) {
      fail(EXIT.busy, `error: ${error.message}`);
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
