import { strict as assert } from 'node:assert';
import { apiKeyMatches, apiKeyPrefix, generateApiKey, hashApiKey, parseKeyOrPrefix } from '../../src/features/organizations/domain/api-key';
import { isKeyUsable } from '../../src/features/organizations/domain/organization';

describe('API keys', () => {
  it('are random, prefixed, and carry at least 32 bytes of entropy', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    assert.match(a.plaintext, /^hik_[0-9A-Za-z]{12}_[0-9A-Za-z]{43}$/);
    assert.notEqual(a.plaintext, b.plaintext);
    // 43 base62 characters ≈ 256 bits.
    assert.ok(43 * Math.log2(62) >= 256);
    assert.equal(a.prefix, a.plaintext.slice(0, 16));
  });

  it('are stored as a SHA-256 digest that does not contain the key', () => {
    const key = generateApiKey();
    assert.equal(key.hash, hashApiKey(key.plaintext));
    assert.match(key.hash, /^[0-9a-f]{64}$/);
    assert.ok(!key.hash.includes(key.plaintext.slice(16)));
  });

  it('match only the exact key', () => {
    const key = generateApiKey();
    assert.ok(apiKeyMatches(key.plaintext, key.hash));
    assert.ok(!apiKeyMatches(key.plaintext.slice(0, -1) + (key.plaintext.endsWith('a') ? 'b' : 'a'), key.hash));
    assert.ok(!apiKeyMatches(key.plaintext, 'not-hex'));
  });

  it('yield their lookup prefix only when well formed', () => {
    const key = generateApiKey();
    assert.equal(apiKeyPrefix(key.plaintext), key.prefix);
    assert.equal(apiKeyPrefix('hik_short_x'), undefined);
    assert.equal(apiKeyPrefix(`${key.plaintext}x`), undefined);
    assert.equal(parseKeyOrPrefix(key.prefix), key.prefix);
    assert.equal(parseKeyOrPrefix(key.plaintext), key.prefix);
    assert.equal(parseKeyOrPrefix('org_123'), undefined);
  });

  it('stop working when revoked or past their rotation grace period', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const base = { id: 'key_1', organizationId: 'org_1', prefix: 'hik_x', hash: 'h', createdAt: now, expiresAt: null, revokedAt: null };
    assert.ok(isKeyUsable(base, now));
    assert.ok(isKeyUsable({ ...base, expiresAt: new Date(now.getTime() + 1000) }, now));
    assert.ok(!isKeyUsable({ ...base, expiresAt: now }, now));
    assert.ok(!isKeyUsable({ ...base, revokedAt: now }, now));
  });
});
