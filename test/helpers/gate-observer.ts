/**
 * Watches the license gate of an organization from another plugin activation: a second,
 * real process on PostgreSQL + Redis (test/helpers/hook-gate-child.ts, its own pool and
 * Redis connections, ENTITLEMENT_CACHE_TTL_SECONDS of an hour so only an invalidation can
 * change its mind), or, in embedded mode, a second activation in this process. Either fires
 * the hook every 10 ms and records when the gate's answer changes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { createStandaloneHost, type StandaloneHost } from '../../src/standalone/host/standalone-host';
import { testConfig, testEnv } from './config';
import { testLogger } from './log-capture';
import type { TestHost } from './test-host';

export interface Observation {
  at: number;
  handled: boolean;
}

/** Something that reports the gate's answer for the organization over time. */
export interface GateObserver {
  observations: Observation[];
  stop(): Promise<void>;
}

export async function waitForObservation(observer: GateObserver, handled: boolean, after: number, timeoutMs = 5000): Promise<Observation> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = observer.observations.find((o) => o.handled === handled && o.at >= after);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`the gate did not answer ${handled} within ${timeoutMs} ms: ${JSON.stringify(observer.observations)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export function spawnGateObserver(t: TestHost, organizationId: string, hook: string, payload: object): Promise<GateObserver> {
  const env = {
    PATH: process.env.PATH,
    ...testEnv({
      DATABASE_URL: t.database.url,
      REDIS_URL: t.config.redisUrl,
      QUEUE_PREFIX: t.config.queuePrefix,
      ENTITLEMENT_CACHE_TTL_SECONDS: '3600',
      LOG_LEVEL: 'warn',
      WORKER_HTTP_PORT: '0',
    }),
    GATE_ORG: organizationId,
    GATE_HOOK: hook,
    GATE_PAYLOAD: JSON.stringify(payload),
  };
  const child: ChildProcess = spawn(process.execPath, [path.join(PACKAGE_ROOT, 'dist/test/helpers/hook-gate-child.js')], {
    env: env as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const observations: Observation[] = [];
  let output = '';
  let partial = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the second process did not start:\n${output}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the second process exited (${code}):\n${output}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      partial += chunk.toString();
      const lines = partial.split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('GATE ')) continue;
        const message = JSON.parse(line.slice(5));
        if (message.ready) {
          clearTimeout(timer);
          resolve({
            observations,
            async stop() {
              if (child.exitCode !== null) return;
              child.removeAllListeners('exit');
              const exited = new Promise((r) => child.once('exit', r));
              child.kill('SIGTERM');
              const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
              await exited;
              clearTimeout(kill);
            },
          });
        } else {
          observations.push({ at: message.at, handled: message.handled });
        }
      }
    });
  });
}

/** Embedded: a second activation in this process, polling the same way. */
export async function inProcessGateObserver(t: TestHost, organizationId: string, hook: string, payload: object): Promise<GateObserver> {
  const second: StandaloneHost = await createStandaloneHost({
    config: testConfig({ DATABASE_URL: t.database.url, BASE_URL: t.baseUrl, QUEUE_PREFIX: t.config.queuePrefix, ENTITLEMENT_CACHE_TTL_SECONDS: '3600' }),
    logger: testLogger(),
    db: t.database.db,
    runWorkers: false,
  });
  const observations: Observation[] = [];
  let stopping = false;
  let last: boolean | undefined;
  const loop = (async () => {
    while (!stopping) {
      const handled = (await second.plugin.fireHook(hook, organizationId, payload)).handled.length > 0;
      if (handled !== last) observations.push({ at: Date.now(), handled });
      last = handled;
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    observations,
    async stop() {
      stopping = true;
      await loop;
      await second.close();
    },
  };
}
