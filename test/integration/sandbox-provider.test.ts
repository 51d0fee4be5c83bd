/** The sandbox provider is off when configured off: 404 for everything under /sandbox. */
import { strict as assert } from 'node:assert';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { SandboxFaults } from '../../src/features/sandbox-provider/domain/faults';

describe('sandbox provider switched off', () => {
  let t: TestHost;
  before(async () => {
    t = await startTestHost({ env: { SANDBOX_PROVIDER_ENABLED: 'false' } });
  });
  after(() => t?.close());

  it('answers 404 for every sandbox path, the fault switch included', async () => {
    for (const [method, path] of [
      ['GET', '/sandbox/oauth/authorize?client_id=x'],
      ['POST', '/sandbox/oauth/token'],
      ['GET', '/sandbox/v1/profile'],
      ['POST', '/sandbox/faults'],
      ['GET', '/sandbox'],
    ]) {
      const response = await t.request(method!, path!, { auth: t.operatorKey, body: method === 'POST' ? { target: 'profile', mode: 'status' } : undefined });
      assert.equal(response.status, 404, `${method} ${path}`);
    }
  });

  it('connect explains that no provider is configured', async () => {
    const org = await t.createOrganization('No provider');
    const response = await t.request('GET', `/v1/connect/profile?organization_id=${org.organizationId}&listing_id=listing_x&origin=https://a.example`);
    assert.equal(response.status, 503);
    assert.match(response.text, /No profile provider is configured/);
  });

  it('the fault switch refuses to arm in production', () => {
    assert.throws(() => new SandboxFaults(true).set({ target: 'profile', mode: 'status', status: 503, delayMs: 0 }), /production/);
    const faults = new SandboxFaults(false);
    faults.set({ target: 'profile', mode: 'status', status: 503, delayMs: 0, remaining: 1 });
    assert.equal(faults.take('profile')?.status, 503);
    assert.equal(faults.take('profile'), undefined);
  });
});
