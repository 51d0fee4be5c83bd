/** Profile provider settings: discovery or three endpoints, client auth, scopes, extra parameters, the mapping; a bad one names itself. */
import { strict as assert } from 'node:assert';
import { ConfigError, loadConfig } from '../../src/kernel/config';
import { testEnv } from '../helpers/config';

const base = { PROFILE_PROVIDER_CLIENT_ID: 'client', PROFILE_PROVIDER_CLIENT_SECRET: 'secret-value-0123456789' };
const load = (env: Record<string, string>) => loadConfig(testEnv({ ...base, ...env }));
const refusal = (env: Record<string, string>) => {
  try {
    load(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  return undefined;
};

describe('config: profile provider', () => {
  it('an issuer alone is enough (discovery); defaults are client_secret_basic and spaces', () => {
    const provider = load({ PROFILE_PROVIDER_ISSUER: 'https://id.example.com/' }).profileProvider!;
    assert.equal(provider.issuer, 'https://id.example.com');
    assert.equal(provider.authorizeUrl, undefined);
    assert.equal(provider.tokenAuthMethod, 'client_secret_basic');
    assert.equal(provider.scopeDelimiter, ' ');
    assert.deepEqual(provider.authorizeParams, {});
  });

  it('an issuer alone reads userinfo as OpenID Connect claims: openid always requested, sub/name/profile mapped', () => {
    const provider = load({ PROFILE_PROVIDER_ISSUER: 'https://id.example.com/' }).profileProvider!;
    assert.deepEqual(provider.scopes, ['openid', 'profile']);
    assert.equal(provider.profileMapping.scalars.id, 'sub');
    assert.equal(provider.profileMapping.scalars.profile_url, 'profile');
    assert.deepEqual(load({ PROFILE_PROVIDER_ISSUER: 'https://id.example.com/', PROFILE_PROVIDER_SCOPES: 'profile email' }).profileProvider!.scopes, [
      'openid',
      'profile',
      'email',
    ]);
    const ownApi = load({ PROFILE_PROVIDER_ISSUER: 'https://id.example.com/', PROFILE_PROVIDER_PROFILE_URL: 'https://api.example.com/me' }).profileProvider!;
    assert.deepEqual(ownApi.scopes, ['profile', 'skills', 'credentials', 'experience'], 'a profile API of its own keeps the documented scopes');
    assert.equal(ownApi.profileMapping.scalars.id, 'id');
  });

  it('without an issuer, all three endpoints are required', () => {
    assert.match(
      refusal({ PROFILE_PROVIDER_AUTHORIZE_URL: 'https://id.example.com/auth', PROFILE_PROVIDER_TOKEN_URL: 'https://id.example.com/token' })!,
      /^PROFILE_PROVIDER_PROFILE_URL: is required/,
    );
  });

  it('reads the client auth method, scopes with their delimiter and extra authorize parameters', () => {
    const provider = load({
      PROFILE_PROVIDER_ISSUER: 'https://id.example.com',
      PROFILE_PROVIDER_TOKEN_AUTH_METHOD: 'client_secret_post',
      PROFILE_PROVIDER_SCOPES: 'openid, profile offline_access',
      PROFILE_PROVIDER_SCOPE_DELIMITER: 'comma',
      PROFILE_PROVIDER_AUTHORIZE_PARAMS: 'prompt=consent&access_type=offline',
    }).profileProvider!;
    assert.equal(provider.tokenAuthMethod, 'client_secret_post');
    assert.deepEqual(provider.scopes, ['openid', 'profile', 'offline_access']);
    assert.equal(provider.scopeDelimiter, ',');
    assert.deepEqual(provider.authorizeParams, { prompt: 'consent', access_type: 'offline' });
  });

  it('names the bad setting', () => {
    const issuer = { PROFILE_PROVIDER_ISSUER: 'https://id.example.com' };
    assert.match(refusal({ ...issuer, PROFILE_PROVIDER_TOKEN_AUTH_METHOD: 'private_key_jwt' })!, /^PROFILE_PROVIDER_TOKEN_AUTH_METHOD: /);
    assert.match(refusal({ ...issuer, PROFILE_PROVIDER_SCOPE_DELIMITER: ';' })!, /^PROFILE_PROVIDER_SCOPE_DELIMITER: /);
    assert.match(
      refusal({ ...issuer, PROFILE_PROVIDER_AUTHORIZE_PARAMS: 'prompt=consent&redirect_uri=https://evil.example' })!,
      /^PROFILE_PROVIDER_AUTHORIZE_PARAMS: must not set redirect_uri/,
    );
    assert.match(
      refusal({ ...issuer, PROFILE_PROVIDER_PROFILE_MAPPING: '{"id":"user..id"}' })!,
      /^PROFILE_PROVIDER_PROFILE_MAPPING: id: must be a dotted field path/,
    );
    assert.match(
      refusal({ ...issuer, PROFILE_PROVIDER_PROFILE_MAPPING: '{"positions":{"path":"jobs","employer":"org"}}' })!,
      /^PROFILE_PROVIDER_PROFILE_MAPPING: positions\.employer: is not a field of positions/,
    );
    assert.match(refusal({ ...issuer, PROFILE_PROVIDER_PROFILE_MAPPING: 'not json' })!, /^PROFILE_PROVIDER_PROFILE_MAPPING: \(document\): is not valid JSON/);
  });

  it('the sandbox stays the default', () => {
    const config = loadConfig(testEnv());
    assert.equal(config.profileProvider, undefined);
    assert.equal(config.sandboxProviderEnabled, true);
  });
});
