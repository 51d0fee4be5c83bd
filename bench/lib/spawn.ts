/**
 * Child processes of a benchmark run: the product's own CLI (`serve`, `worker`, `migrate`)
 * and the baseline servers, each in a process of its own, their output to a log file
 * under bench-results/ (never through this process: piping would cost the load
 * generator CPU).
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';

export const BIN = path.join(PACKAGE_ROOT, 'bin/hiring-integrations.js');
export const RESULTS_DIR = path.join(PACKAGE_ROOT, 'bench-results');

export interface BenchProcess {
  name: string;
  child: ChildProcess;
  logFile: string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const running = new Set<BenchProcess>();

/**
 * Starts a Node process for the benchmark, its output in bench-results/NAME.log. With
 * BENCH_PROFILE=1 every such process (the product's and the baselines') writes a V8 CPU
 * profile to bench-results/profiles/NAME.cpuprofile when it exits.
 */
export function startNode(name: string, script: string, args: string[], env: Record<string, string | undefined>, extraExecArgv: string[] = []): BenchProcess {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${RESULTS_DIR}/profiles`, `--cpu-prof-name=${name}.cpuprofile`] : [];
  const execArgv = [...profile, ...extraExecArgv];
  const logFile = path.join(RESULTS_DIR, `${name}.log`);
  const fd = openSync(logFile, 'w');
  const child = fork(script, args, {
    cwd: PACKAGE_ROOT,
    env: { PATH: process.env.PATH, ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', fd, fd, 'ipc'],
    execArgv,
  });
  closeSync(fd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc: BenchProcess = {
    name,
    child,
    logFile,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
      running.delete(proc);
    },
  };
  running.add(proc);
  void exited.then(() => running.delete(proc));
  return proc;
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop('SIGKILL')));
}

/** Runs the product's CLI to completion (migrate). */
export function runCli(args: string[], env: Record<string, string | undefined>): void {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd: PACKAGE_ROOT,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) throw new Error(`hiring-integrations ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(-2000)}`);
}

export { freePort } from '../../test/helpers/processes';

/** Resolves once GET url answers 2xx; fails if the process exits first. */
export async function waitForHttp(url: string, proc: BenchProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void proc.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${proc.name} exited before ${url} answered; see ${proc.logFile}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms; see ${proc.logFile}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resolves on the child's first IPC message (the baseline servers send 'ready'). */
export function waitForMessage(proc: BenchProcess, timeoutMs = 60_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${proc.name} sent no ready message; see ${proc.logFile}`)), timeoutMs);
    proc.child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message);
    });
    void proc.exited.then((code) => reject(new Error(`${proc.name} exited (${code}); see ${proc.logFile}`)));
  });
}

/** CPU time (user + system, ms) a process has used so far; undefined off Linux. */
export function cpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100); // clock ticks (USER_HZ = 100)
  } catch {
    return undefined;
  }
}

/** CPU time (ms) of the PostgreSQL backends connected to one database (other than the asker's own). */
export async function backendsCpu(db: Knex): Promise<Map<number, number>> {
  const { rows } = await db.raw('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
  const result = new Map<number, number>();
  for (const { pid } of rows as { pid: number }[]) {
    const ms = cpuMs(pid);
    if (ms !== undefined) result.set(pid, ms);
  }
  return result;
}

/** The Redis server's own CPU time (ms), from INFO: shared with everyone using that server. */
export async function redisCpuMs(redis: Redis): Promise<number | undefined> {
  const info = await redis.info('cpu');
  const user = /used_cpu_user:([\d.]+)/.exec(info)?.[1];
  const sys = /used_cpu_sys:([\d.]+)/.exec(info)?.[1];
  return user && sys ? (Number(user) + Number(sys)) * 1000 : undefined;
}

/** The first IPC message from `proc` that `accept` turns into a value. */
export function nextMessage<T>(proc: BenchProcess, accept: (m: any) => T | undefined): Promise<T> {
  return new Promise((resolve) => {
    const listener = (m: unknown) => {
      const value = accept(m);
      if (value === undefined) return;
      proc.child.off('message', listener);
      resolve(value);
    };
    proc.child.on('message', listener);
  });
}

/** Asks a counterpart process to say when it has seen `n` requests; answers its report then. */
export function reached<T>(proc: BenchProcess, n: number): Promise<T> {
  const answer = nextMessage(proc, (m) => (m?.reached === n ? (m as T) : undefined));
  proc.child.send({ waitFor: n });
  return answer;
}

/** The SQL statements a product process counted (bench/lib/count-statements.ts), with each one's mean latency. */
export function statementsOf(proc: BenchProcess): Promise<{ statements: Record<string, number>; latencyMs: Record<string, number> }> {
  const answer = nextMessage(proc, (m) => (m?.statements ? (m as { statements: Record<string, number>; latencyMs: Record<string, number> }) : undefined));
  proc.child.send('bench:statements');
  return answer;
}
