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
import { activateLicense } from '../helpers/hooks';
import { inProcessGateObserver, spawnGateObserver, waitForObservation, type GateObserver } from '../helpers/gate-observer';
import { usingPostgres } from '../helpers/database';
import { usingRedis } from '../helpers/redis';
import { startTestHost, type TestHost } from '../helpers/test-host';

const ACTION = 'hris.employee_sync';
const HOOK = 'candidate.hired';
const PAYLOAD = { candidate_id: 'cand_x', candidate: { name: 'Ada Lovelace', email: 'ada@example.com' } };

describe('entitlements: the gate flips in another process within 1 second', function () {
  this.timeout(90_000);
  let t: TestHost;
  let observer: GateObserver | undefined;
  let acme: { organizationId: string; apiKey: string };
  const separateProcess = usingRedis() && usingPostgres();

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme');
    observer = separateProcess
      ? await spawnGateObserver(t, acme.organizationId, HOOK, PAYLOAD)
      : await inProcessGateObserver(t, acme.organizationId, HOOK, PAYLOAD);
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
