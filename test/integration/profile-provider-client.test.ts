/**
 * The provider client over real HTTP against a scripted server: client authentication as
 * configured, every kind of failure told apart and logged once with the provider's error
 * (never the secret), discovery checked and kept.
 */
import { strict as assert } from 'node:assert';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProfileProviderConfig } from '../../src/kernel/config';
import { ProviderAuthorizationError } from '../../src/features/profiles/domain/profile-provider';
import { DomainError } from '../../src/kernel/errors';
import type { Logger } from '../../src/kernel/logger';
import { OAuthProfileProvider } from '../../src/features/profiles/provider/oauth-profile-provider';
import { IDENTITY_MAPPING } from '../../src/kernel/config/profile-mapping';
import { rememberSecret } from '../helpers/log-capture';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

class MemoryLogger implements Logger {
  constructor(readonly lines: { level: string; fields: any; message?: string }[] = []) {}
  debug(fields: object, message?: string) {
    this.lines.push({ level: 'debug', fields, message });
  }
  info(fields: object, message?: string) {
    this.lines.push({ level: 'info', fields, message });
  }
  warn(fields: object, message?: string) {
    this.lines.push({ level: 'warn', fields, message });
  }
  error(fields: object, message?: string) {
    this.lines.push({ level: 'error', fields, message });
  }
  child(): Logger {
    return this;
  }
}

const SECRET = 'se cr%t:with+odd/chars=0123456789';

describe('profile provider client (token endpoint, profile API, discovery)', function () {
  this.timeout(20_000);
  let server: Server;
  let url: string;
  let handler: Handler;
  let hits: string[];

  before(async () => {
    rememberSecret(SECRET);
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hits.push(req.url!);
        handler(req, body, res);
      });
    });
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => (hits = []));
  after(() => new Promise((r) => server.close(r)));

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const client = (overrides: Partial<ProfileProviderConfig> = {}, logger = new MemoryLogger()) => ({
    logger,
    provider: new OAuthProfileProvider(
      {
        authorizeUrl: `${url}/authorize`,
        tokenUrl: `${url}/token`,
        profileUrl: `${url}/profile`,
        clientId: 'our client',
        clientSecret: SECRET,
        scopes: ['profile'],
        scopeDelimiter: ' ',
        tokenAuthMethod: 'client_secret_basic',
        authorizeParams: {},
        profileMapping: IDENTITY_MAPPING,
        timeoutMs: 300,
        ...overrides,
      },
      logger,
    ),
  });
  const failure = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      return error as Error;
    }
    assert.fail('expected a failure');
  };

  it('client_secret_basic: form-urlencoded id and secret in Basic, nothing in the body; lowercase bearer accepted', async () => {
    let seen: { auth?: string; body?: URLSearchParams } = {};
    handler = (req, body, res) => {
      seen = { auth: req.headers.authorization, body: new URLSearchParams(body) };
      json(res, 200, { access_token: 'at-1', token_type: 'bearer', expires_in: 60, refresh_token: 'rt-2' });
    };
    const tokens = await client().provider.refresh('rt-1');
    const [id, secret] = Buffer.from(seen.auth!.replace(/^Basic /, ''), 'base64')
      .toString('utf8')
      .split(':');
    const decode = (v: string) => decodeURIComponent(v.replace(/\+/g, ' '));
    assert.equal(decode(id!), 'our client');
    assert.equal(decode(secret!), SECRET);
    assert.equal(seen.body!.get('client_secret'), null);
    assert.equal(seen.body!.get('grant_type'), 'refresh_token');
    assert.equal(tokens.refreshToken, 'rt-2');
    assert.ok(tokens.expiresAt!.getTime() > Date.now());
  });

  it('client_secret_post: id and secret in the body, no Authorization header', async () => {
    let seen: { auth?: string; body?: URLSearchParams } = {};
    handler = (req, body, res) => {
      seen = { auth: req.headers.authorization, body: new URLSearchParams(body) };
      json(res, 200, { access_token: 'at-1', token_type: 'Bearer' });
    };
    await client({ tokenAuthMethod: 'client_secret_post' }).provider.exchangeCode({ code: 'c', redirectUri: 'https://x.example/cb', codeVerifier: 'v' });
    assert.equal(seen.auth, undefined);
    assert.equal(seen.body!.get('client_id'), 'our client');
    assert.equal(seen.body!.get('client_secret'), SECRET);
    assert.equal(seen.body!.get('code_verifier'), 'v');
  });

  it('invalid_grant: the authorization is gone', async () => {
    handler = (_req, _body, res) => json(res, 400, { error: 'invalid_grant', error_description: 'grant revoked' });
    const { provider, logger } = client();
    const error = await failure(provider.refresh('rt'));
    assert.ok(error instanceof ProviderAuthorizationError);
    assert.equal(error.providerError, 'invalid_grant');
    assert.equal(logger.lines.length, 1);
    assert.equal(logger.lines[0]!.fields.provider.error_description, 'grant revoked');
  });

  it('invalid_client: provider_client_rejected, one error line for the operator with the provider’s words and no secret', async () => {
    handler = (_req, _body, res) => json(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
    const { provider, logger } = client();
    const error = await failure(provider.exchangeCode({ code: 'c', redirectUri: 'https://x.example/cb' }));
    assert.ok(error instanceof DomainError);
    assert.equal(error.code, 'provider_client_rejected');
    assert.equal(error.details.status, 502);
    assert.equal(logger.lines.length, 1);
    const [line] = logger.lines;
    assert.equal(line!.level, 'error');
    assert.deepEqual(line!.fields.provider, { step: 'code exchange', status: 401, error: 'invalid_client', error_description: 'client authentication failed' });
    assert.match(line!.message!, /PROFILE_PROVIDER_CLIENT_SECRET/);
    assert.ok(!JSON.stringify(logger.lines).includes(SECRET));
  });

  it('unreachable, 5xx and too slow: provider_unavailable, saying which', async () => {
    handler = (_req, _body, res) => json(res, 503, { error: 'temporarily_unavailable' });
    const status = await failure(client().provider.refresh('rt'));
    assert.equal((status as DomainError).code, 'provider_unavailable');
    assert.match(status.message, /answered 503/);
    handler = (_req, _body, res) => setTimeout(() => json(res, 200, {}), 1000);
    const slow = await failure(client().provider.fetchProfile('at'));
    assert.equal((slow as DomainError).code, 'provider_unavailable');
    assert.match(slow.message, /timed out/);
    const closed = await failure(client({ tokenUrl: 'http://127.0.0.1:9/token' }).provider.refresh('rt'));
    assert.equal((closed as DomainError).code, 'provider_unavailable');
  });

  it('an unusable answer names the field: token_type, a missing access_token, a profile field', async () => {
    handler = (_req, _body, res) => json(res, 200, { access_token: 'at', token_type: 'mac' });
    assert.match((await failure(client().provider.refresh('rt'))).message, /token_type/);
    handler = (_req, _body, res) => json(res, 200, { token_type: 'Bearer' });
    assert.match((await failure(client().provider.refresh('rt'))).message, /access_token/);
    handler = (_req, _body, res) => json(res, 200, { id: '12345 67', name: 'A', profile_url: 'https://p.example/a' });
    const { provider, logger } = client();
    const error = await failure(provider.fetchProfile('at'));
    assert.equal((error as DomainError).code, 'provider_error');
    assert.match(error.message, /profile field id: a subject of 1–255 printable ASCII characters/);
    assert.equal(logger.lines.length, 1, 'logged once');
    assert.match(logger.lines[0]!.fields.provider.problem, /^profile field id/);
  });

  it('a rejected access token (401 with WWW-Authenticate) asks for a refresh', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' });
      res.end();
    };
    const error = await failure(client().provider.fetchProfile('at'));
    assert.ok(error instanceof ProviderAuthorizationError);
    assert.equal(error.providerError, 'invalid_token');
  });

  it('discovery: read once and kept; a document for another issuer or without our auth method is refused, naming the field', async () => {
    let document: Record<string, unknown> = {};
    handler = (req, _body, res) => {
      if (req.url === '/.well-known/openid-configuration') return json(res, 200, document);
      json(res, 200, { access_token: 'at', token_type: 'Bearer' });
    };
    const discovered = { issuer: url, authorizeUrl: undefined, tokenUrl: undefined, profileUrl: undefined };
    document = {
      issuer: url,
      authorization_endpoint: `${url}/a`,
      token_endpoint: `${url}/t`,
      userinfo_endpoint: `${url}/me`,
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
    };
    const { provider } = client(discovered);
    assert.deepEqual(await provider.endpoints(), { authorizeUrl: `${url}/a`, tokenUrl: `${url}/t`, profileUrl: `${url}/me` });
    await provider.refresh('rt');
    assert.deepEqual(hits, ['/.well-known/openid-configuration', '/t']);

    document = { ...document, issuer: 'https://elsewhere.example' };
    assert.match((await failure(client(discovered).provider.endpoints())).message, /field issuer/);
    document = { ...document, issuer: url, token_endpoint_auth_methods_supported: ['private_key_jwt'] };
    assert.match((await failure(client(discovered).provider.endpoints())).message, /PROFILE_PROVIDER_TOKEN_AUTH_METHOD/);
  });
});
