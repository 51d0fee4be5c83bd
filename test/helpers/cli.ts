/** Runs the operator CLI (`bin/hiring-integrations.js`) as its own process, as an operator would. */
import { spawnSync } from 'node:child_process';
import { appendChildLog, rememberSecretsIn } from './log-capture';
import { BIN } from './processes';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Only PATH and `env` reach the process; keys it prints are remembered for the run's leak check. */
export function runCli(args: string[], env: Record<string, string | undefined>, cwd?: string): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH, ...env } as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 30_000,
  });
  rememberSecretsIn(result.stdout);
  appendChildLog(result.stderr);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
