/**
 * A real OAuth 2.0 / OpenID Connect authorization server for the tests: `oidc-provider`
 * (nobody here wrote it) on a free loopback port, with its own login and consent
 * interactions as HTML forms, plus a small resource server for the profile API that
 * validates each bearer token by token introspection (RFC 7662) at the provider, as a
 * real resource server does. Candidates log in by their id, which is their subject (`sub`).
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strict as assert } from 'node:assert';
import { rememberSecret } from './log-capture';
import { browse, CookieJar, popupResult, type Hop, type PopupResult } from './profile-flow';

// oidc-provider is ESM only; TypeScript compiles import() to require().
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<any>;

export type TokenAuthMethod = 'client_secret_basic' | 'client_secret_post';

export interface Candidate {
  id: string;
  name: string;
  headline: string;
  skills: { name: string; verified: boolean }[];
  credentials: { title: string; issuer: string; verified: boolean; issued_at: string }[];
  positions: { title: string; company: string; start_date: string; end_date: string | null; verified?: boolean }[];
}

export const MARIE: Candidate = {
  id: 'usr_oidc1Marie2Curie',
  name: 'Marie Curie',
  headline: 'Physicist and chemist',
  skills: [
    { name: 'Radiochemistry', verified: true },
    { name: 'Spectroscopy', verified: true },
    { name: 'Alchemy', verified: false },
  ],
  credentials: [{ title: 'Nobel Prize in Physics', issuer: 'Royal Swedish Academy of Sciences', verified: true, issued_at: '1903-12-10' }],
  positions: [
    { title: 'Professor', company: 'University of Paris', start_date: '2015-11-01', end_date: null, verified: true },
    { title: 'Lecturer', company: 'École normale supérieure', start_date: '2010-09-01', end_date: '2015-10-31', verified: false },
    { title: 'Research assistant', company: 'Lippmann Laboratory', start_date: '2008-02-01', end_date: '2010-08-31' },
  ],
};

/** The profile API answers our shape at /v1/profile and another provider's shape at /api/me. */
export function otherShape(c: Candidate) {
  return {
    // A provider's numeric ids come as JSON numbers.
    account: {
      user_id: /^\d+$/.test(c.id) ? Number(c.id) : c.id,
      display_name: c.name,
      tagline: c.headline,
      links: { public: `https://profiles.example/${c.id}` },
    },
    expertise: c.skills.map((s) => ({ label: s.name, confirmed: s.verified })),
    certifications: c.credentials.map((x) => ({ name: x.title, authority: x.issuer, is_verified: x.verified, awarded_on: x.issued_at })),
    employment: c.positions.map((p) => ({ role: p.title, employer: { name: p.company }, from: p.start_date, to: p.end_date, confirmed: p.verified })),
  };
}

export function ourShape(c: Candidate) {
  const { id, name, headline, skills, credentials, positions } = c;
  return { id, name, headline, profile_url: `https://profiles.example/${id}`, skills, credentials, positions };
}

export interface OidcProviderOptions {
  tokenAuthMethod: TokenAuthMethod;
  /** Issue a new refresh token at each refresh and revoke the grant when an old one is reused. */
  rotateRefreshTokens?: boolean;
  candidates?: Candidate[];
}

export interface OidcHarness {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The resource server: `${apiUrl}/v1/profile` (our shape), `${apiUrl}/api/me` (another shape). */
  apiUrl: string;
  /** Token endpoint requests by grant_type, and those refused (`error` → count). */
  tokenRequests: Record<string, number>;
  tokenErrors: Record<string, number>;
  profileRequests: number;
  /** Lifetime of access tokens issued from now on. */
  accessTokenTtlSeconds: number;
  /** Registers our client (its callbacks are known once the plugin listens). */
  register(redirectUris: string[]): Promise<void>;
  /** Revokes the candidate's grant, as a candidate removing the app at the provider does. */
  revokeGrants(accountId: string): Promise<void>;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

function page(res: ServerResponse, title: string, form: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1>${form}`);
}

let signingKey: object | undefined;

export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcHarness> {
  const { Provider } = await importEsm('oidc-provider');
  const candidates = new Map((options.candidates ?? [MARIE]).map((c) => [c.id, c]));
  signingKey ??= generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const clientId = `hiring-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(24).toString('base64url');
  const apiClientSecret = randomBytes(24).toString('base64url');
  rememberSecret(clientSecret);
  rememberSecret(apiClientSecret);

  let provider: any;
  const providerServer = createServer((req, res) => {
    if (!provider) {
      res.writeHead(503).end();
      return;
    }
    // oidc-provider takes client_secret_basic and client_secret_post alike for a client
    // registered with either; many providers take only the registered one, as here.
    if (
      req.method === 'POST' &&
      req.url === '/token' &&
      /^Basic /i.test(req.headers.authorization ?? '') !== (options.tokenAuthMethod === 'client_secret_basic')
    ) {
      harness.tokenRequests.refused = (harness.tokenRequests.refused ?? 0) + 1;
      harness.tokenErrors.invalid_client = (harness.tokenErrors.invalid_client ?? 0) + 1;
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="token"' });
      res.end(JSON.stringify({ error: 'invalid_client', error_description: `client authentication must use ${options.tokenAuthMethod}` }));
      return;
    }
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((error) => {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(String((error as Error).message));
      });
      return;
    }
    provider.callback()(req, res);
  });
  const issuer = await listen(providerServer);

  const harness: OidcHarness = {
    issuer,
    clientId,
    clientSecret,
    apiUrl: '',
    tokenRequests: {},
    tokenErrors: {},
    profileRequests: 0,
    accessTokenTtlSeconds: 3600,
    async register(redirectUris: string[]) {
      provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: redirectUris,
            grant_types: ['authorization_code', 'refresh_token'],
            response_types: ['code'],
            token_endpoint_auth_method: options.tokenAuthMethod,
          },
          // The resource server, which only introspects.
          {
            client_id: 'profile-api',
            client_secret: apiClientSecret,
            redirect_uris: [],
            grant_types: [],
            response_types: [],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        jwks: { keys: [signingKey] },
        cookies: { keys: [randomBytes(16).toString('hex')] },
        scopes: ['openid', 'offline_access', 'profile'],
        // The standard claims (OIDC Core §5.4): userinfo answers name and profile to a token with the profile scope.
        claims: { openid: ['sub'], profile: ['name', 'profile'] },
        features: { devInteractions: { enabled: false }, introspection: { enabled: true } },
        interactions: { url: (_ctx: unknown, i: { uid: string }) => `/interaction/${i.uid}` },
        findAccount: async (_ctx: unknown, id: string) =>
          candidates.has(id)
            ? { accountId: id, claims: async () => ({ sub: id, name: candidates.get(id)!.name, profile: `https://profiles.example/${id}` }) }
            : undefined,
        ttl: {
          AccessToken: () => harness.accessTokenTtlSeconds,
          AuthorizationCode: 60,
          RefreshToken: 14 * 86400,
          Grant: 14 * 86400,
          Session: 86400,
          Interaction: 3600,
          IdToken: 3600,
        },
        rotateRefreshToken: options.rotateRefreshTokens === true,
        renderError: async (ctx: any, out: Record<string, string>) => {
          ctx.type = 'html';
          ctx.body = `<!doctype html><title>Error</title><pre>${escapeHtml(JSON.stringify(out))}</pre>`;
        },
      });
      provider.on('server_error', (_ctx: unknown, error: Error) => console.error('oidc-provider server_error', error));
      for (const event of ['access_token.saved', 'refresh_token.saved', 'authorization_code.saved']) {
        provider.on(event, (token: { jti: string }) => rememberSecret(token.jti));
      }
      // Counted after the provider handled it: the grant type and how it ended.
      provider.use(async (ctx: any, next: () => Promise<void>) => {
        await next();
        if (ctx.method === 'POST' && ctx.path === '/token') {
          const grantType = String(ctx.oidc?.params?.grant_type ?? 'unknown');
          harness.tokenRequests[grantType] = (harness.tokenRequests[grantType] ?? 0) + 1;
          if (ctx.status >= 400) {
            const error = String((ctx.body as { error?: string })?.error ?? ctx.status);
            harness.tokenErrors[error] = (harness.tokenErrors[error] ?? 0) + 1;
          }
        }
      });
    },
    async revokeGrants(accountId: string) {
      // Tokens of a destroyed grant no longer introspect as active nor refresh.
      const grantId = lastGrantOf.get(accountId);
      const grant = grantId ? await provider.Grant.find(grantId) : undefined;
      assert.ok(grant, `a grant of ${accountId}`);
      await grant.destroy();
    },
    async close() {
      providerServer.closeAllConnections();
      apiServer.closeAllConnections();
      await Promise.all([new Promise((r) => providerServer.close(r)), new Promise((r) => apiServer.close(r))]);
    },
  };

  const lastGrantOf = new Map<string, string>();

  /** Login, then consent: the forms a candidate fills in at the provider. */
  async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const [, , uid, action] = new URL(req.url!, issuer).pathname.split('/');
    const details = await provider.interactionDetails(req, res);
    assert.equal(details.uid, uid);
    if (req.method === 'GET') {
      if (details.prompt.name === 'login') {
        return page(
          res,
          'Sign in',
          `<form method="post" action="/interaction/${uid}/login"><label>User <input name="login"></label><button type="submit" name="submit" value="login">Sign in</button></form>`,
        );
      }
      return page(
        res,
        `Allow ${details.params.client_id} to read your profile?`,
        `<form method="post" action="/interaction/${uid}/confirm"><button type="submit" name="submit" value="allow">Allow</button></form>` +
          `<form method="post" action="/interaction/${uid}/abort"><button type="submit" name="submit" value="deny">Deny</button></form>`,
      );
    }
    const form = await readForm(req);
    if (action === 'login') {
      const login = form.get('login') ?? '';
      if (!candidates.has(login)) return page(res, 'Unknown user', '');
      return provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
    }
    if (action === 'abort') {
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User aborted interaction' },
        { mergeWithLastSubmission: false },
      );
    }
    const { prompt, params, session } = details;
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(' '));
    if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
    if (prompt.details.missingResourceScopes) {
      for (const [indicator, scopes] of Object.entries(prompt.details.missingResourceScopes as Record<string, string[]>))
        grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    lastGrantOf.set(session.accountId, grantId);
    return provider.interactionFinished(req, res, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true });
  }

  // The resource server: every request's token is introspected at the provider.
  const apiServer = createServer((req, res) => {
    void (async () => {
      harness.profileRequests += 1;
      const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const unauthorized = () => {
        res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"', 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_token' }));
      };
      if (!token) return unauthorized();
      const introspection = await fetch(`${issuer}/token/introspection`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`profile-api:${apiClientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      });
      const answer = (await introspection.json()) as { active?: boolean; sub?: string; token_type?: string };
      if (!answer.active || answer.token_type !== 'Bearer' || !answer.sub) return unauthorized();
      const candidate = candidates.get(answer.sub);
      if (!candidate) return unauthorized();
      const path = new URL(req.url!, issuer).pathname;
      const body = path === '/api/me' ? otherShape(candidate) : path === '/v1/profile' ? ourShape(candidate) : undefined;
      if (!body) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    })().catch((error) => res.writeHead(500).end(String((error as Error).message)));
  });
  harness.apiUrl = await listen(apiServer);
  return harness;
}

/** Our start page → the provider's login and consent forms → our callback page, as a browser would. */
export async function connectThroughProvider(
  baseUrl: string,
  input: { organizationId: string; listingId: string; origin: string; login: string; consent?: 'allow' | 'deny' },
): Promise<{ result?: PopupResult; callback: Hop; authorizeUrl: URL }> {
  const jar = new CookieJar();
  const query = new URLSearchParams({ organization_id: input.organizationId, listing_id: input.listingId, origin: input.origin });
  const start = await browse(jar, `${baseUrl}/v1/connect/profile?${query}`);
  assert.equal(start.status, 302, `connect start redirects to the provider: ${start.status} ${start.text.slice(0, 300)}`);
  const authorizeUrl = new URL(start.location!);
  let hop = start;
  let url = authorizeUrl;
  for (let step = 0; step < 12; step++) {
    if (url.origin === new URL(baseUrl).origin && url.pathname.endsWith('/callback')) {
      rememberSecret(url.searchParams.get('code'));
      const callback = await browse(jar, url.toString());
      return { result: popupResult(callback.text), callback, authorizeUrl };
    }
    hop = await browse(jar, url.toString());
    if (hop.status >= 300 && hop.status < 400) {
      url = new URL(hop.location!, url);
      continue;
    }
    assert.equal(hop.status, 200, `${url.pathname}: ${hop.status} ${hop.text.slice(0, 300)}`);
    const action = /<form method="post" action="([^"]+)">/.exec(hop.text)?.[1];
    assert.ok(action, `a form at ${url.pathname}: ${hop.text.slice(0, 300)}`);
    if (/name="login"/.test(hop.text)) {
      hop = await browse(jar, new URL(action, url).toString(), { method: 'POST', form: { login: input.login, submit: 'login' } });
    } else {
      const decision = input.consent ?? 'allow';
      const target = decision === 'allow' ? action : /action="([^"]+\/abort)"/.exec(hop.text)![1]!;
      hop = await browse(jar, new URL(target, url).toString(), { method: 'POST', form: { submit: decision } });
    }
    assert.ok(hop.status >= 300 && hop.status < 400, `form answered ${hop.status} ${hop.text.slice(0, 300)}`);
    url = new URL(hop.location!, url);
  }
  throw new Error('the provider did not send the browser back to our callback');
}
