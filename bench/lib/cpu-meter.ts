/**
 * CPU time, which the shared machine's load does not move the way it moves wall-clock rates:
 * this process's (process.cpuUsage), the PostgreSQL backends serving one database (from
 * /proc, by the pids pg_stat_activity names), and the Redis server (from /proc: the whole
 * server, so other users of the same Redis count too: read it on a quiet machine). Also
 * the Redis commands this process sends, by name (every ioredis client here is the bench's).
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import type { Knex } from 'knex';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** utime + stime of a process, ms; 0 when it is gone or /proc is absent. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

function redisServerPid(): number | undefined {
  try {
    const pid = Number(execFileSync('pgrep', ['-o', 'redis-server'], { encoding: 'utf8' }).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

let counting: Map<string, number> | undefined;
let patched = false;

/** Counts every command any ioredis client of this process sends while a meter runs. */
function patchRedis(): void {
  if (patched) return;
  patched = true;
  const original = Redis.prototype.sendCommand;
  const scriptNames = new Map<string, string>();
  Redis.prototype.sendCommand = function (this: Redis, command: { name: string; args: unknown[] }, ...rest: unknown[]) {
    if (counting) {
      let name = command.name;
      // BullMQ's Lua scripts by their name (ioredis keeps them by name with their sha).
      if (name === 'evalsha') {
        const sha = String(command.args[0]);
        if (!scriptNames.has(sha)) {
          const set = (this as unknown as { scriptsSet: Record<string, { sha: string }> }).scriptsSet;
          for (const [scriptName, script] of Object.entries(set)) scriptNames.set(script.sha, scriptName);
        }
        name = `evalsha ${scriptNames.get(sha) ?? sha.slice(0, 8)}`;
      }
      counting.set(name, (counting.get(name) ?? 0) + 1);
    }
    return (original as (...args: unknown[]) => unknown).call(this, command, ...rest);
  } as typeof original;
}

export interface CpuReading {
  /** This process, user + system (ms). */
  processMs: number;
  /** The PostgreSQL backends of the database (ms). */
  postgresMs: number;
  /** The Redis server process, whoever it served (ms); undefined when not found. */
  redisMs: number | undefined;
  /** Redis commands sent by this process, by name. */
  redisCommands: Map<string, number>;
}

export async function startCpuMeter(db: Knex | undefined): Promise<{ stop(): Promise<CpuReading> }> {
  patchRedis();
  const backends = async () =>
    db ? ((await db.raw('select pid from pg_stat_activity where datname = current_database()')) as { rows: { pid: number }[] }).rows.map((r) => r.pid) : [];
  const before = new Map<number, number>();
  for (const pid of await backends()) before.set(pid, processCpuMs(pid));
  const redisPid = redisServerPid();
  const redisBefore = redisPid ? processCpuMs(redisPid) : 0;
  const commands = new Map<string, number>();
  counting = commands;
  const cpuBefore = process.cpuUsage();
  return {
    async stop() {
      const cpu = process.cpuUsage(cpuBefore);
      counting = undefined;
      const redisMs = redisPid ? processCpuMs(redisPid) - redisBefore : undefined;
      let postgresMs = 0;
      // A backend that started during the window counts from 0 (its whole life is in it).
      for (const pid of new Set([...before.keys(), ...(await backends())])) postgresMs += Math.max(0, processCpuMs(pid) - (before.get(pid) ?? 0));
      return { processMs: (cpu.user + cpu.system) / 1000, postgresMs, redisMs, redisCommands: commands };
    },
  };
}

/**
 * With BENCH_PROFILE=1, a V8 CPU profile of this process over one window only (the
 * deliveries, not the seeding), to bench-results/profiles/NAME.cpuprofile; a no-op otherwise.
 */
export async function profileWindow(name: string): Promise<() => Promise<void>> {
  if (!process.env.BENCH_PROFILE) return async () => undefined;
  const { Session } = await import('node:inspector');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: object };
    session.disconnect();
    mkdirSync('bench-results/profiles', { recursive: true });
    writeFileSync(`bench-results/profiles/${name}.cpuprofile`, JSON.stringify(profile));
  };
}
