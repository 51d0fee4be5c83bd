import { strict as assert } from 'node:assert';
import { SignedCandidateSessions } from '../../src/features/connect/http/candidate-session-token';
import { deriveKey } from '../../src/platform/security/key-derivation';
import { TokenCipher } from '../../src/platform/security/token-cipher';

const SECRET = Buffer.alloc(32, 7);

describe('profile: token encryption and candidate sessions', () => {
  const cipher = new TokenCipher(deriveKey(SECRET, 'oauth-token-encryption'));

  it('derives a different key per purpose', () => {
    const keys = ['oauth-token-encryption', 'candidate-session-signing', 'connect-session-cookie'].map((p) => deriveKey(SECRET, p as never).toString('hex'));
    assert.equal(new Set(keys).size, 3);
    assert.equal(deriveKey(SECRET, 'oauth-token-encryption').length, 32);
  });

  it('AES-256-GCM round-trips, with a fresh IV each time', () => {
    const a = cipher.encrypt('sbxat_secret-token', 'org_1/usr_1/access');
    const b = cipher.encrypt('sbxat_secret-token', 'org_1/usr_1/access');
    assert.notEqual(a, b);
    assert.ok(!a.includes('secret-token'));
    assert.equal(cipher.decrypt(a, 'org_1/usr_1/access'), 'sbxat_secret-token');
  });

  it('refuses tampering, other associated data and other keys', () => {
    const sealed = cipher.encrypt('token', 'org_1/usr_1/access');
    const [v, iv, tag, ct] = sealed.split('.');
    const flipped = Buffer.from(ct!, 'base64url');
    flipped[0]! ^= 1;
    assert.throws(() => cipher.decrypt([v, iv, tag, flipped.toString('base64url')].join('.'), 'org_1/usr_1/access'));
    assert.throws(() => cipher.decrypt(sealed, 'org_2/usr_1/access'));
    assert.throws(() => cipher.decrypt(sealed, 'org_1/usr_1/refresh'));
    assert.throws(() => new TokenCipher(deriveKey(Buffer.alloc(32, 8), 'oauth-token-encryption')).decrypt(sealed, 'org_1/usr_1/access'));
    assert.throws(() => cipher.decrypt('v2.x.y.z', 'org_1/usr_1/access'));
  });

  it('candidate sessions: bound, signed, expiring after 30 minutes', () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const sessions = new SignedCandidateSessions(deriveKey(SECRET, 'candidate-session-signing'), { now: () => now });
    const issued = sessions.issue({ organizationId: 'org_a', listingId: 'listing_b', profileUserId: 'usr_c' });
    assert.match(issued.token, /^hic_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.equal(issued.expiresAt.toISOString(), '2026-01-01T00:30:00.000Z');
    assert.deepEqual(sessions.verify(issued.token), { organizationId: 'org_a', listingId: 'listing_b', profileUserId: 'usr_c' });
    // A payload edited to another listing no longer matches its signature.
    const [payload, signature] = issued.token.slice(4).split('.');
    const edited = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), l: 'listing_x' })).toString('base64url');
    assert.throws(
      () => sessions.verify(`hic_${edited}.${signature}`),
      (e: { code: string }) => e.code === 'invalid_candidate_token',
    );
    // Another SECRET_KEY's token is refused.
    const foreign = new SignedCandidateSessions(deriveKey(Buffer.alloc(32, 9), 'candidate-session-signing'), { now: () => now }).issue({
      organizationId: 'org_a',
      listingId: 'listing_b',
      profileUserId: 'usr_c',
    });
    assert.throws(() => sessions.verify(foreign.token));
    now = new Date('2026-01-01T00:30:00Z');
    assert.throws(
      () => sessions.verify(issued.token),
      (e: { code: string }) => e.code === 'invalid_candidate_token',
    );
  });
});
