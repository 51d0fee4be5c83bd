/**
 * Real processes: `node bin/hiring-integrations.js serve|worker|migrate`, started with the
 * very commands and environment docker/compose.yml gives its containers (read from the
 * compose file and the Dockerfile, not copied), with only addresses and secrets swapped
 * for the test's. Their JSON log lines go to the run's log (checked for leaked secrets).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { appendChildLog, rememberSecret } from './log-capture';

export const BIN = path.join(PACKAGE_ROOT, 'bin/hiring-integrations.js');
export const COMPOSE_FILE = path.join(PACKAGE_ROOT, 'docker/compose.yml');
export const DOCKERFILE = path.join(PACKAGE_ROOT, 'docker/Dockerfile');
export const ENV_EXAMPLE = path.join(PACKAGE_ROOT, 'docker/.env.example');

// ---- the compose file -------------------------------------------------------------------

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string | number | boolean | null>;
  healthcheck?: { test?: string[]; disable?: boolean; interval?: string };
  depends_on?: Record<string, { condition: string }>;
  restart?: string;
  ports?: string[];
  stop_grace_period?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

export function readCompose(): ComposeFile {
  return parseYaml(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as ComposeFile;
}

/** `KEY=value` lines of docker/.env.example (comments and blank lines skipped). */
export function readEnvExample(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(ENV_EXAMPLE, 'utf8').split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) out[match[1]!] = match[2]!;
  }
  return out;
}

export class InterpolationError extends Error {}

/**
 * Compose's variable substitution: `${VAR}`, `${VAR:-default}`, `${VAR-default}`,
 * `${VAR:?message}`, `${VAR?message}`, `$VAR` and `$$` for a literal dollar.
 */
export function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (match, name, colon, op, arg, bare) => {
    if (match === '$$') return '$';
    if (bare) return vars[bare] ?? '';
    const value = vars[name];
    const missing = colon ? value === undefined || value === '' : value === undefined;
    if (op === '-') return missing ? arg : value!;
    if (op === '?') {
      if (missing) throw new InterpolationError(`${name}: ${arg}`);
      return value!;
    }
    return value ?? '';
  });
}

/** Every variable name a string refers to with ${...} or $NAME. */
export function referencedVariables(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)|\$([A-Za-z_][A-Za-z0-9_]*)/g)) names.add((match[1] ?? match[2])!);
  return names;
}

/** The environment compose gives a service, with ${...} resolved from `vars`. */
export function serviceEnvironment(service: ComposeService, vars: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(service.environment ?? {})) {
    out[key] = value === null ? '' : interpolate(String(value), vars);
  }
  return out;
}

/** The Dockerfile's final-stage ENTRYPOINT (exec form). */
export function dockerEntrypoint(): string[] {
  const stages = readFileSync(DOCKERFILE, 'utf8').split(/^FROM\s/m);
  const match = /^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(stages[stages.length - 1]!);
  if (!match) throw new Error('docker/Dockerfile has no exec-form ENTRYPOINT in its final stage');
  return JSON.parse(match[1]!) as string[];
}

/** What the container of `service` runs: ENTRYPOINT + command, as argv. */
export function containerArgv(serviceName: string): string[] {
  const service = readCompose().services[serviceName];
  if (!service) throw new Error(`docker/compose.yml has no service "${serviceName}"`);
  return [...(service.entrypoint ?? dockerEntrypoint()), ...(service.command ?? [])];
}

/** Secrets of one test installation, in the shapes the configuration schema accepts. */
export function testSecrets(): { POSTGRES_PASSWORD: string; SECRET_KEY: string; OPERATOR_API_KEY: string } {
  const secrets = {
    POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
    SECRET_KEY: randomBytes(32).toString('hex'),
    OPERATOR_API_KEY: `op_${randomBytes(24).toString('hex')}`,
  };
  rememberSecret(secrets.OPERATOR_API_KEY);
  rememberSecret(secrets.SECRET_KEY);
  return secrets;
}

// ---- processes --------------------------------------------------------------------------

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface AppProcess {
  name: string;
  child: ChildProcess;
  /** Parsed JSON log lines so far. */
  logs(): Array<Record<string, unknown>>;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  exited: Promise<ExitStatus>;
  hasExited(): boolean;
  waitForLog(predicate: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Sends `signal` and waits for the exit (SIGKILL after `timeoutMs`). */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<ExitStatus>;
}

const running = new Set<AppProcess>();

/** A pino line: JSON with a level, a time and a message. */
function isLogLine(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    return (typeof parsed.level === 'number' || typeof parsed.level === 'string') && 'time' in parsed && 'msg' in parsed;
  } catch {
    return false;
  }
}

/**
 * Runs `argv` as the container would (argv[0] "node" is this Node binary, paths are
 * relative to the package root, which is the image's WORKDIR), with exactly `env` plus PATH.
 */
export function startProcess(name: string, argv: string[], env: Record<string, string | undefined>, options: { cwd?: string } = {}): AppProcess {
  const [command, ...args] = argv;
  const executable = command === 'node' ? process.execPath : command!;
  const child = spawn(executable, args, {
    cwd: options.cwd ?? PACKAGE_ROOT,
    env: { PATH: process.env.PATH, ...env } as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  let partial = '';
  const onStdout = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    output += text;
    partial += text;
    const complete = partial.split('\n');
    partial = complete.pop()!;
    for (const line of complete) {
      // Log lines go to the run's log; the startup banner and command output (which may
      // show a new API key once, on purpose) do not.
      if (!isLogLine(line)) continue;
      lines.push({ process: name, ...(JSON.parse(line) as Record<string, unknown>) });
      appendChildLog(line);
    }
    waiters.splice(0).forEach((w) => w());
  };
  child.stdout!.on('data', onStdout);
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    appendChildLog(chunk.toString('utf8'));
    waiters.splice(0).forEach((w) => w());
  });
  let done = false;
  const exited = new Promise<ExitStatus>((resolve) =>
    child.once('exit', (code, signal) => {
      done = true;
      running.delete(proc);
      waiters.splice(0).forEach((w) => w());
      resolve({ code, signal });
    }),
  );
  const proc: AppProcess = {
    name,
    child,
    logs: () => lines,
    output: () => output,
    exited,
    hasExited: () => done,
    async waitForLog(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find(predicate);
        if (found) return found;
        if (done) throw new Error(`${name} exited before the expected log line:\n${output.slice(-3000)}`);
        if (Date.now() > deadline) throw new Error(`${name}: expected log line not seen within ${timeoutMs} ms:\n${output.slice(-3000)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    async stop(signal = 'SIGTERM', timeoutMs = 30_000) {
      if (done) return exited;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const status = await exited;
      clearTimeout(timer);
      return status;
    },
  };
  running.add(proc);
  return proc;
}

/** Kills whatever a test left running (by pid, only processes this helper started). */
export async function killAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop('SIGKILL', 5_000)));
}

/** Resolves once GET url answers 2xx; fails early if the process died. */
export async function waitForHttp(url: string, proc?: AppProcess, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc?.hasExited()) throw new Error(`${proc.name} exited before ${url} answered:\n${proc.output().slice(-3000)}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms${proc ? `:\n${proc.output().slice(-3000)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A TCP port nobody listens on right now, for a server that another process (or a later call) binds.
 *
 * Picked below the kernel's ephemeral range: `listen(0)` picks inside it, and so does every outgoing connection (to
 * PostgreSQL, Redis, a child's own clients), so a port picked that way can be taken by a connection before the server
 * binds it. That is how CI once lost a scale-out API process to EADDRINUSE. Ports handed out by this process are
 * never handed out again; the other mocha worker picks at random from the same ten thousand and checks with a bind.
 */
export async function freePort(): Promise<number> {
  const [low, high] = PICKABLE_PORTS;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + randomInt(high - low);
    if (handedOut.has(port)) continue;
    if (await bindable(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${low} and ${high} after 200 tries`);
}

const handedOut = new Set<number>();
const PICKABLE_PORTS = pickablePorts();

/** Ten thousand ports just below the ephemeral range (32768 on Linux by default). */
function pickablePorts(): [number, number] {
  let ephemeralLow = 32768;
  try {
    ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || ephemeralLow;
  } catch {
    /* not Linux: keep the default */
  }
  const high = Math.max(ephemeralLow, 11_024);
  return [high - 10_000, high];
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Runs a compose healthcheck's `test` (CMD form) in the given environment; true when it exits 0. */
export function runHealthcheck(test: string[], env: Record<string, string>): boolean {
  const [kind, command, ...args] = test;
  if (kind !== 'CMD') throw new Error(`healthcheck must use the exec (CMD) form, got ${kind}`);
  const executable = command === 'node' ? process.execPath : command!;
  const result = spawnSync(executable, args, { cwd: PACKAGE_ROOT, env: { PATH: process.env.PATH, ...env }, timeout: 10_000 });
  return result.status === 0;
}

/** Runs a one-shot container command (migrate) to completion. */
export function runToCompletion(argv: string[], env: Record<string, string | undefined>): { code: number | null; stdout: string; stderr: string } {
  const [command, ...args] = argv;
  const result = spawnSync(command === 'node' ? process.execPath : command!, args, {
    cwd: PACKAGE_ROOT,
    env: { PATH: process.env.PATH, ...env } as NodeJS.ProcessEnv,
    encoding: 'utf8',
    timeout: 60_000,
  });
  appendChildLog(result.stderr);
  for (const line of result.stdout.split('\n')) if (isLogLine(line)) appendChildLog(line);
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
