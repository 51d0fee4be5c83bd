/**
 * The entitlement cache is consistent across processes: a second, real process (its own
 * plugin activation, database pool and Redis connections; ENTITLEMENT_CACHE_TTL_SECONDS
 * of an hour, so only an invalidation message can change its mind) fires a hook every
 * 10 ms and reports when the gate's answer flips. Activation and deactivation in this
 * process must flip it within 1 second of the license change (measured from the
 * license's own activated_at / deactivated_at, which precede the commit).
 *
 * Embedded mode (no Redis) has one process by design (PGlite admits one writer): there
 * the same check runs against a second activation in this process, over in-process events.
 */
import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/manifest/manifest';
import { createStandaloneHost, type StandaloneHost } from '../../src/standalone/standalone-host';
import { testConfig, testEnv } from '../helpers/config';
import { activateLicense } from '../helpers/hooks';
import { testLogger } from '../helpers/log-capture';
import { usingPostgres } from '../helpers/database';
import { usingRedis } from '../helpers/redis';
import { startTestHost, type TestHost } from '../helpers/test-host';

const ACTION = 'hris.employee_sync';
const HOOK = 'candidate.hired';
const PAYLOAD = { candidate_id: 'cand_x', candidate: { name: 'Ada Lovelace', email: 'ada@example.com' } };

interface Observation {
  at: number;
  handled: boolean;
}

/** Something that reports the gate's answer for the organization over time. */
interface GateObserver {
  observations: Observation[];
  stop(): Promise<void>;
}

async function waitForObservation(observer: GateObserver, handled: boolean, after: number, timeoutMs = 5000): Promise<Observation> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = observer.observations.find((o) => o.handled === handled && o.at >= after);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`the gate did not answer ${handled} within ${timeoutMs} ms: ${JSON.stringify(observer.observations)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function spawnObserver(t: TestHost, organizationId: string): Promise<GateObserver> {
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
    GATE_HOOK: HOOK,
    GATE_PAYLOAD: JSON.stringify(PAYLOAD),
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
async function inProcessObserver(t: TestHost, organizationId: string): Promise<GateObserver> {
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
      const handled = (await second.plugin.fireHook(HOOK, organizationId, PAYLOAD)).handled.length > 0;
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

describe('entitlements: the gate flips in another process within 1 second', function () {
  this.timeout(90_000);
  let t: TestHost;
  let observer: GateObserver | undefined;
  let acme: { organizationId: string; apiKey: string };
  const separateProcess = usingRedis() && usingPostgres();

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme');
    observer = separateProcess ? await spawnObserver(t, acme.organizationId) : await inProcessObserver(t, acme.organizationId);
    await waitForObservation(observer, false, 0);
  });
  after(async () => {
    await observer?.stop();
    await t?.close();
  });

  it('activation: the other side starts running the handler within 1 s of the license becoming active', async () => {
    const license = await activateLicense(t, acme.apiKey, ACTION);
    const activatedAt = Date.parse(license.activated_at);
    const flip = await waitForObservation(observer!, true, activatedAt - 5000);
    const lag = flip.at - activatedAt;
    assert.ok(lag < 1000, `flipped ${lag} ms after activation`);
  });

  it('deactivation: the other side stops within 1 s', async () => {
    const response = await t.request('POST', `/v1/integrations/licenses/${ACTION}/deactivate`, { auth: acme.apiKey });
    assert.equal(response.status, 200, response.text);
    const deactivatedAt = Date.parse(response.body.deactivated_at);
    const flip = await waitForObservation(observer!, false, deactivatedAt - 5000);
    const lag = flip.at - deactivatedAt;
    assert.ok(lag < 1000, `flipped ${lag} ms after deactivation`);
    // And it stays off: the answer is not an accident of timing.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(observer!.observations[observer!.observations.length - 1]!.handled, false);
  });

  it('activating again flips it back (no stale entry left behind)', async () => {
    const license = await activateLicense(t, acme.apiKey, ACTION);
    const activatedAt = Date.parse(license.activated_at);
    const flip = await waitForObservation(observer!, true, activatedAt);
    assert.ok(flip.at - activatedAt < 1000, `flipped ${flip.at - activatedAt} ms after activation`);
  });
});
