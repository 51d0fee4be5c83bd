/** The license and subscription state machines, every transition and every refusal. */
import { strict as assert } from 'node:assert';
import type { LicenseStatus } from '../../src/features/licensing/domain/license';
import {
  licenseStatusesAllowing,
  nextLicenseStatus,
  requireLicenseTransition,
  type LicenseEvent,
} from '../../src/features/licensing/domain/license-state-machine';
import type { SubscriptionStatus } from '../../src/features/licensing/domain/subscription';
import {
  nextSubscriptionStatus,
  requireSubscriptionTransition,
  settleFromChildren,
  type SubscriptionEvent,
} from '../../src/features/licensing/domain/subscription-state-machine';
import { isDomainError } from '../../src/kernel/errors';

describe('licensing: license state machine', () => {
  const STATES: LicenseStatus[] = ['provisioning', 'active', 'failed', 'deactivated'];
  const EVENTS: LicenseEvent[] = ['provisioned', 'provisioning_failed', 'deactivate'];
  const ALLOWED: Record<string, LicenseStatus> = {
    'provisioning provisioned': 'active',
    'provisioning provisioning_failed': 'failed',
    'provisioning deactivate': 'deactivated',
    'active deactivate': 'deactivated',
  };

  for (const from of STATES) {
    for (const event of EVENTS) {
      const expected = ALLOWED[`${from} ${event}`];
      it(`${from} --${event}--> ${expected ?? 'refused'}`, () => {
        assert.equal(nextLicenseStatus(from, event), expected);
        if (expected) assert.equal(requireLicenseTransition(from, event), expected);
        else
          assert.throws(
            () => requireLicenseTransition(from, event),
            (e: unknown) => isDomainError(e) && e.kind === 'conflict' && e.code === 'invalid_license_state',
          );
      });
    }
  }

  it('failed and deactivated are final', () => {
    for (const event of EVENTS) {
      assert.equal(nextLicenseStatus('failed', event), undefined);
      assert.equal(nextLicenseStatus('deactivated', event), undefined);
    }
  });

  it('names the states each event may leave from (what storage updates conditionally)', () => {
    assert.deepEqual(licenseStatusesAllowing('provisioned'), ['provisioning']);
    assert.deepEqual(licenseStatusesAllowing('provisioning_failed'), ['provisioning']);
    // A license waiting for its connection can be deactivated too (it was never billed).
    assert.deepEqual(licenseStatusesAllowing('deactivate').sort(), ['active', 'provisioning', 'requires_connection']);
  });
});

describe('licensing: subscription state machine', () => {
  const STATES: SubscriptionStatus[] = ['provisioning', 'active', 'failed', 'canceled'];
  const EVENTS: SubscriptionEvent[] = ['all_active', 'any_failed', 'cancel'];
  const ALLOWED: Record<string, SubscriptionStatus> = {
    'provisioning all_active': 'active',
    'provisioning any_failed': 'failed',
    'provisioning cancel': 'canceled',
    'active cancel': 'canceled',
    'failed cancel': 'canceled',
  };

  for (const from of STATES) {
    for (const event of EVENTS) {
      const expected = ALLOWED[`${from} ${event}`];
      it(`${from} --${event}--> ${expected ?? 'refused'}`, () => {
        assert.equal(nextSubscriptionStatus(from, event), expected);
        if (expected) assert.equal(requireSubscriptionTransition(from, event), expected);
        else
          assert.throws(
            () => requireSubscriptionTransition(from, event),
            (e: unknown) => isDomainError(e) && e.code === 'invalid_subscription_state',
          );
      });
    }
  }

  describe('settling the parent from its children', () => {
    const kids = (...statuses: LicenseStatus[]) => statuses.map((status) => ({ status }));
    it('waits while any child provisions', () => assert.equal(settleFromChildren(kids('active', 'provisioning')), undefined));
    it('is all_active when every child is active', () => assert.equal(settleFromChildren(kids('active', 'active', 'active')), 'all_active'));
    it('is any_failed as soon as one child failed, even with others provisioning', () =>
      assert.equal(settleFromChildren(kids('provisioning', 'failed', 'active')), 'any_failed'));
    it('says nothing without children', () => assert.equal(settleFromChildren([]), undefined));
    it('says nothing when children were deactivated (a cancel settled it already)', () =>
      assert.equal(settleFromChildren(kids('deactivated', 'active')), undefined));
  });
});
