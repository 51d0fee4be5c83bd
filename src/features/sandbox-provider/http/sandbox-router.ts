/**
 * The built-in sandbox profile provider, mounted at /sandbox: an OAuth 2.0 authorization
 * server (authorization code + PKCE S256 only, single-use 60-second codes, exact
 * redirect URI match, refresh_token grant) and a profile API, over seeded candidates.
 * Disabled (SANDBOX_PROVIDER_ENABLED=false, or production without it): 404 for all.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import express, { Router, type Request, type Response } from 'express';
import type { Config } from '../../../kernel/config';
import { newNonce, sendPage } from '../../../platform/http/html';
import { notFoundHandler } from '../../../platform/http/errors';
import { defineRoute, reply, z, type ApiRouter } from '../../../platform/http/route';
import type { RouterKit } from '../../../platform/http/router-kit';
import type { Database } from '../../../platform/database/database';
import { deriveKey } from '../../../platform/security/key-derivation';
import { SandboxAuthorizationCodes, pkceChallenge } from '../storage/authorization-codes';
import { SandboxConsentTickets } from '../storage/consent-tickets';
import { findSandboxCandidate, SANDBOX_CANDIDATES, type SandboxCandidate } from '../domain/candidates';
import { consentPage, publicProfilePage, sandboxErrorPage } from './consent-page';
import type { FaultTarget, SandboxFaults } from '../domain/faults';
import { SANDBOX_MOUNT_PATH, sandboxRegistration } from '../sandbox-client';
import { SandboxTokens } from '../domain/sandbox-tokens';

const TICKET_TTL_MS = 10 * 60_000;
const CLIENT_NAME = 'Hiring Integrations';

interface AuthorizationTicket {
  /** Claimed by the form's POST: a ticket is good for one decision. */
  id: string;
  clientId: string;
  redirectUri: string;
  state?: string;
  scope: string;
  codeChallenge: string;
  expiresAt: number;
}

/** The consent form carries the checked request, signed, so its POST cannot swap the redirect URI. */
class TicketSigner {
  constructor(private readonly key: Buffer) {}

  seal(ticket: AuthorizationTicket): string {
    const payload = Buffer.from(JSON.stringify(ticket)).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  open(sealed: unknown): AuthorizationTicket | undefined {
    if (typeof sealed !== 'string') return undefined;
    const [payload, signature] = sealed.split('.');
    if (!payload || !signature) return undefined;
    const expected = Buffer.from(this.sign(payload), 'base64url');
    const given = Buffer.from(signature, 'base64url');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    const ticket = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as AuthorizationTicket;
    return ticket.expiresAt > Date.now() ? ticket : undefined;
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(`ticket.${payload}`).digest('base64url');
  }
}

/** Expired consent-ticket claims and authorization codes are deleted at most this often. */
const PRUNE_EVERY_MS = 60_000;

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 && value.length <= 2048 ? value : undefined);

function redirectWith(res: Response, redirectUri: string, params: Record<string, string | undefined>): void {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  res.setHeader('Cache-Control', 'no-store');
  res.redirect(302, url.toString());
}

function tokenError(res: Response, status: number, error: string, description: string): void {
  res.status(status).setHeader('Cache-Control', 'no-store');
  if (status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="sandbox"');
  res.json({ error, error_description: description });
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function clientCredentials(req: Request): { clientId?: string; clientSecret?: string } {
  const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const [id, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
    return { clientId: id && decodeURIComponent(id), clientSecret: secret && decodeURIComponent(secret) };
  }
  return { clientId: str(req.body?.client_id), clientSecret: str(req.body?.client_secret) };
}

export interface SandboxRouterOptions {
  config: Config;
  db: Database;
  faults: SandboxFaults;
  kit: RouterKit;
}

export function sandboxRouter(options: SandboxRouterOptions): ApiRouter {
  const { config, kit } = options;
  const router = Router();
  router.use(...kit.policy.before, kit.policy.limitPublic);
  if (!config.sandboxProviderEnabled) {
    router.use(notFoundHandler);
    return { name: 'sandbox-provider', router, routes: [] };
  }
  const registration = sandboxRegistration(config);
  const signingKey = deriveKey(config.secretKey, 'sandbox-token-signing');
  const tokens = new SandboxTokens(signingKey);
  const tickets = new TicketSigner(signingKey);
  const codes = new SandboxAuthorizationCodes(options.db);
  const consentTickets = new SandboxConsentTickets(options.db);
  let lastPrunedAt = 0;
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const profileUrlOf = (candidate: SandboxCandidate) => `${config.baseUrl}${SANDBOX_MOUNT_PATH}/profiles/${candidate.id}`;

  const applyFault = async (target: FaultTarget, res: Response): Promise<boolean> => {
    const fault = options.faults.take(target);
    if (!fault) return false;
    if (fault.mode !== 'status') await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (res.headersSent || res.destroyed) return true;
    if (fault.mode === 'slow') return false;
    const status = fault.mode === 'timeout' ? 504 : fault.status;
    res.status(status).json({ error: status === 401 ? 'invalid_token' : 'sandbox_fault', error_description: `Simulated ${fault.mode} fault` });
    return true;
  };

  router.get('/oauth/authorize', (req, res) => {
    const nonce = newNonce();
    const q = req.query as Record<string, unknown>;
    const clientId = str(q.client_id);
    const redirectUri = str(q.redirect_uri);
    // Until client and redirect URI are verified, errors are shown, never redirected.
    if (clientId !== registration.clientId || redirectUri !== registration.redirectUri) {
      return sendPage(res, 400, sandboxErrorPage('Unknown client_id, or a redirect_uri that is not registered for it.', nonce), pageCsp(nonce));
    }
    const state = str(q.state);
    if (q.response_type !== 'code') return redirectWith(res, redirectUri, { error: 'unsupported_response_type', state });
    const codeChallenge = str(q.code_challenge);
    if (q.code_challenge_method !== 'S256' || !codeChallenge || !/^[A-Za-z0-9_-]{43,128}$/.test(codeChallenge)) {
      return redirectWith(res, redirectUri, { error: 'invalid_request', error_description: 'PKCE with code_challenge_method=S256 is required', state });
    }
    const requested = (str(q.scope) ?? SANDBOX_SCOPESTRING).split(/[\s,]+/).filter(Boolean);
    const unknown = requested.filter((s) => !SANDBOX_SCOPE_SET.has(s));
    if (unknown.length > 0) return redirectWith(res, redirectUri, { error: 'invalid_scope', state });
    const ticket = tickets.seal({
      id: randomBytes(16).toString('base64url'),
      clientId,
      redirectUri,
      state,
      scope: requested.join(' '),
      codeChallenge,
      expiresAt: Date.now() + TICKET_TTL_MS,
    });
    const html = consentPage({
      clientName: CLIENT_NAME,
      organizationName: str(q.hi_organization)?.slice(0, 200),
      listingTitle: str(q.hi_listing)?.slice(0, 200),
      scopes: requested,
      candidates: SANDBOX_CANDIDATES,
      ticket,
      action: `${config.baseUrl}${SANDBOX_MOUNT_PATH}/oauth/authorize`,
      nonce,
    });
    sendPage(res, 200, html, pageCsp(nonce, new URL(redirectUri).origin));
  });

  router.post('/oauth/authorize', form, async (req, res, next) => {
    try {
      const ticket = tickets.open(req.body?.request);
      if (!ticket || typeof ticket.id !== 'string' || !(await consentTickets.claim(ticket.id, new Date(ticket.expiresAt)))) {
        const nonce = newNonce();
        return sendPage(
          res,
          400,
          sandboxErrorPage('This authorization request expired, was already used or was tampered with. Start again from the application.', nonce),
          pageCsp(nonce),
        );
      }
      if (Date.now() - lastPrunedAt > PRUNE_EVERY_MS) {
        lastPrunedAt = Date.now();
        consentTickets.pruneExpired().catch(() => undefined); // housekeeping; the next decision tries again
      }
      if (req.body?.decision === 'deny') {
        return redirectWith(res, ticket.redirectUri, { error: 'access_denied', error_description: 'The candidate denied the request', state: ticket.state });
      }
      const candidate = findSandboxCandidate(String(req.body?.user_id ?? ''));
      if (!candidate)
        return redirectWith(res, ticket.redirectUri, { error: 'access_denied', error_description: 'No candidate was chosen', state: ticket.state });
      const code = await codes.issue({
        clientId: ticket.clientId,
        redirectUri: ticket.redirectUri,
        codeChallenge: ticket.codeChallenge,
        userId: candidate.id,
        scope: ticket.scope,
      });
      redirectWith(res, ticket.redirectUri, { code, state: ticket.state });
    } catch (error) {
      next(error);
    }
  });

  router.post('/oauth/token', form, async (req, res, next) => {
    try {
      if (await applyFault('token', res)) return;
      const { clientId, clientSecret } = clientCredentials(req);
      if (clientId !== registration.clientId || !clientSecret || !safeEqual(clientSecret, registration.clientSecret)) {
        return tokenError(res, 401, 'invalid_client', 'Client authentication failed');
      }
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (body.grant_type === 'authorization_code') {
        const code = str(body.code);
        const verifier = str(body.code_verifier);
        if (!code || !verifier || !str(body.redirect_uri)) return tokenError(res, 400, 'invalid_request', 'code, redirect_uri and code_verifier are required');
        const grant = await codes.redeem(code);
        if (!grant) return tokenError(res, 400, 'invalid_grant', 'The code is invalid, expired or already used');
        if (grant.clientId !== clientId || grant.redirectUri !== body.redirect_uri)
          return tokenError(res, 400, 'invalid_grant', 'The code was issued to another client or redirect_uri');
        if (!safeEqual(pkceChallenge(verifier), grant.codeChallenge)) return tokenError(res, 400, 'invalid_grant', 'PKCE verification failed');
        return sendTokens(res, tokens, { userId: grant.userId, clientId, scope: grant.scope }, true);
      }
      if (body.grant_type === 'refresh_token') {
        const claims = tokens.verify('refresh', String(body.refresh_token ?? ''));
        if (!claims || claims.clientId !== clientId) return tokenError(res, 400, 'invalid_grant', 'The refresh token is invalid or expired');
        return sendTokens(res, tokens, { userId: claims.userId, clientId, scope: claims.scope }, false);
      }
      tokenError(res, 400, 'unsupported_grant_type', 'Use authorization_code or refresh_token');
    } catch (error) {
      next(error);
    }
  });

  router.get('/v1/profile', async (req, res) => {
    if (await applyFault('profile', res)) return;
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const claims = bearer ? tokens.verify('access', bearer) : undefined;
    const candidate = claims ? findSandboxCandidate(claims.userId) : undefined;
    if (!claims || !candidate) {
      res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
      return res.status(401).json({ error: 'invalid_token', error_description: 'The access token is invalid or expired' });
    }
    const scopes = new Set(claims.scope.split(' '));
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      id: candidate.id,
      name: candidate.name,
      headline: candidate.headline,
      profile_url: profileUrlOf(candidate),
      skills: scopes.has('skills') ? candidate.skills : [],
      credentials: scopes.has('credentials') ? candidate.credentials : [],
      positions: scopes.has('experience') ? candidate.positions : [],
      // OpenID Connect's email claims, with the profile: the widget prefills a verified one.
      ...(candidate.email ? { email: candidate.email, email_verified: candidate.email_verified === true } : {}),
    });
  });

  router.get('/profiles/:user_id', (req, res, next) => {
    const candidate = findSandboxCandidate(String(req.params.user_id));
    if (!candidate) return next();
    const nonce = newNonce();
    sendPage(res, 200, publicProfilePage(candidate, nonce), pageCsp(nonce));
  });

  // Rehearsing outages: operator-only, and absent from production builds of the router.
  if (config.env !== 'production') router.use(kit.build('sandbox-faults', faultRoutes(options.faults)).router);
  router.use(notFoundHandler);
  router.use(kit.policy.onError);
  return { name: 'sandbox-provider', router, routes: [] };
}

const SANDBOX_SCOPESTRING = 'profile skills credentials experience';
const SANDBOX_SCOPE_SET = new Set(SANDBOX_SCOPESTRING.split(' '));

function pageCsp(nonce: string, formTarget?: string): string {
  // A form POST that redirects is checked against form-action too, so the client's origin is listed.
  const formAction = formTarget ? `'self' ${formTarget}` : `'none'`;
  return `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self'; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`;
}

function sendTokens(res: Response, tokens: SandboxTokens, claims: { userId: string; clientId: string; scope: string }, withRefresh: boolean): void {
  const access = tokens.issue('access', claims);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  res.json({
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    scope: claims.scope,
    ...(withRefresh ? { refresh_token: tokens.issue('refresh', claims).token } : {}),
  });
}

function faultRoutes(faults: SandboxFaults) {
  return [
    defineRoute({
      method: 'post',
      path: '/faults',
      operationId: 'setSandboxFault',
      summary: 'Make the sandbox provider fail (tests and rehearsals only; not in production)',
      tags: ['sandbox'],
      auth: ['operator'],
      body: z
        .object({
          target: z.enum(['profile', 'token']),
          mode: z.enum(['status', 'timeout', 'slow']),
          status: z.number().int().min(400).max(599).default(503),
          delay_ms: z.number().int().min(0).max(60_000).default(15_000),
          times: z.number().int().min(1).max(1000).optional(),
        })
        .strict(),
      handler: async ({ body }) => {
        faults.set({ target: body.target, mode: body.mode, status: body.status, delayMs: body.delay_ms, remaining: body.times });
        return reply(201, { object: 'sandbox_faults', data: faults.list() });
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/faults',
      operationId: 'clearSandboxFaults',
      summary: 'Heal the sandbox provider',
      tags: ['sandbox'],
      auth: ['operator'],
      handler: async () => {
        faults.clear();
        return reply(204);
      },
    }),
  ];
}
