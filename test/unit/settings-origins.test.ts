import { strict as assert } from 'node:assert';
import { isOriginAllowed, normalizeOrigin, defaultSettings } from '../../src/features/applications/domain/profile-apply-settings';

const DEV = { allowLoopbackHttp: true };
const PROD = { allowLoopbackHttp: false };

describe('settings: origin rules', () => {
  it('accepts https origins, normalized', () => {
    assert.equal(normalizeOrigin('https://Jobs.Example.com', PROD), 'https://jobs.example.com');
    assert.equal(normalizeOrigin('https://jobs.example.com/', PROD), 'https://jobs.example.com');
    assert.equal(normalizeOrigin('https://jobs.example.com:443', PROD), 'https://jobs.example.com');
    assert.equal(normalizeOrigin('https://jobs.example.com:8443', PROD), 'https://jobs.example.com:8443');
  });
  it('accepts http on loopback outside production only', () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:4000']) {
      assert.equal(normalizeOrigin(origin, DEV), origin);
      assert.throws(() => normalizeOrigin(origin, PROD), /https/);
    }
    assert.throws(() => normalizeOrigin('http://jobs.example.com', DEV));
  });
  it('refuses paths, queries, fragments, credentials, other schemes and junk', () => {
    for (const bad of [
      'https://a.example/path',
      'https://a.example?q',
      'https://a.example#f',
      'https://u:p@a.example',
      'ftp://a.example',
      'javascript:alert(1)',
      'a.example',
      '*',
      '',
    ]) {
      assert.throws(() => normalizeOrigin(bad, DEV), /origin/, bad);
    }
  });
  it('allowed means an exact match of a listed origin', () => {
    const settings = { ...defaultSettings('org_1'), allowedOrigins: ['https://a.example'] };
    assert.equal(isOriginAllowed(settings, 'https://a.example'), true);
    assert.equal(isOriginAllowed(settings, 'https://a.example.evil'), false);
    assert.equal(isOriginAllowed(settings, 'http://a.example'), false);
    assert.equal(isOriginAllowed(settings, undefined), false);
    assert.equal(isOriginAllowed(undefined, 'https://a.example'), false);
  });
});
