/** Where an employee stands on one requirement of a role, from what they hold: pure. */
import { strict as assert } from 'node:assert';
import { standingOf, type HeldForRequirement } from '../../src/features/employees/domain/requirement-standing';
import type { CredentialRequirement } from '../../src/features/listings/domain/credential-requirements';

const DAY = 86_400_000;
const now = new Date('2027-03-01T00:00:00Z');
const rn: CredentialRequirement = {
  key: 'rn_license',
  label: 'RN license',
  credential_type: 'License',
  issuers: [],
  min_validity_days: 30,
  verified_source_required: true,
};
const held = (daysLeft: number, state = 'active', stateReason: string | null = null): HeldForRequirement => ({
  expiresAt: new Date(now.getTime() + daysLeft * DAY),
  state,
  stateReason,
  source: 'document_review',
  sourceId: 'edoc_1',
});
const status = (h: HeldForRequirement | undefined, expiringWithinDays = 45) => {
  const s = standingOf(rn, h, now, expiringWithinDays);
  return [s.status, s.reason];
};

describe('employees: standing on a requirement', () => {
  it('missing without a credential, or when the one held was revoked or is no longer trusted', () => {
    assert.deepEqual(status(undefined), ['missing', 'no_matching_credential']);
    assert.deepEqual(status(held(100, 'revoked', 'credential_revoked')), ['missing', 'credential_revoked']);
    assert.deepEqual(status(held(100, 'untrusted', 'issuer_untrusted')), ['missing', 'issuer_untrusted']);
  });

  it("met beyond the reminder window, expiring inside it, expired inside the requirement's minimum validity or past the expiry", () => {
    assert.deepEqual(status(held(100)), ['met', null]);
    assert.deepEqual(status(held(40)), ['expiring', null]);
    assert.deepEqual(status(held(29)), ['expired', 'validity_below_minimum']);
    assert.deepEqual(status(held(0)), ['expired', 'credential_expired']);
    assert.deepEqual(status(held(-3)), ['expired', 'credential_expired']);
    assert.deepEqual(status(held(40), 0), ['met', null], 'no reminder window: nothing reads expiring');
  });
});
