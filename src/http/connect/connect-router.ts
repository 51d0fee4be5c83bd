/**
 * The connect flow under /v1/connect, opened in the widget's popup:
 *   GET /profile?organization_id&listing_id&origin  → checks, then grant redirects to the
 *       provider with `state` and PKCE (S256)
 *   POST /profile (form: the same + return_to, client_state)  → redirect mode, when the popup
 *       was blocked: only from the listing page itself (its `Origin` header) and only back to
 *       a URL the organization registered
 *   GET /profile/callback  → grant exchanges the code; we check state ourselves too,
 *       store the authorization (and its import job), and post the result to the opener
 *       (or, in redirect mode, return to `return_to` with a single-use result code)
 *   POST /profile/result (form: code, client_state)  → the widget exchanges that code for
 *       the result, once, from the flow's origin
 * grant keeps its state in an express-session whose rows live in the database, so the
 * callback may land on another API process than the start.
 */
import { timingSafeEqual } from 'node:crypto';
import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import session from 'express-session';
import grant from 'grant';
import type { Config } from '../../config';
import type { RouterKit } from '../../composition/module';
import { ConnectFailure, ConnectService, type ConnectContext } from '../../domain/connect/connect-service';
import { isDomainError } from '../../domain/shared/errors';
import type { Logger } from '../../domain/shared/logger';
import type { ProviderEndpoints } from '../../providers/profile/provider-endpoints';
import { deriveKey } from '../../security/key-derivation';
import type { Database } from '../../storage/database';
import { KnexSessionStore } from '../../storage/oauth-session-store';
import type { ApiRouter } from '../route';
import { ConnectResultCodes } from '../../storage/connect-result-codes';
import { DomainError } from '../../domain/shared/errors';
import { sendError } from '../errors';
import { errorMessage, MESSAGE_SOURCE, sendPostingPage, sendReturnPage, sendShowOnlyPage, type PopupMessage } from './popup-page';
import type { ReturnTo } from '../../domain/connect/connect-service';

export const CONNECT_MOUNT_PATH = '/v1/connect';
export const CONNECT_SESSION_COOKIE = 'hi_connect';
const SESSION_TTL_MS = 15 * 60_000;

interface GrantSession {
  state?: string;
  code_verifier?: string;
}

declare module 'express-session' {
  interface SessionData {
    connect?: ConnectContext;
    grant?: GrantSession;
  }
}

interface GrantResponse {
  error?: unknown;
  access_token?: string;
  refresh_token?: string;
  raw?: { expires_in?: unknown };
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length <= 2048 ? value : undefined);

function sameString(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A candidate in the popup reads a page, not JSON. */
const rateLimitedPage: ErrorRequestHandler = (error, _req, res, next) => {
  if (!isDomainError(error) || error.code !== 'rate_limited') return next(error);
  res.setHeader('Retry-After', String(error.details.retryAfterSeconds ?? 60));
  sendShowOnlyPage(res, 429, 'rate_limited', 'Too many attempts from this network. Please wait a minute, then try again.');
};

export interface ConnectRouterOptions {
  config: Config;
  db: Database;
  /** undefined when no provider is configured and the sandbox is off. */
  endpoints: ProviderEndpoints | undefined;
  connect: ConnectService;
  kit: RouterKit;
  logger: Logger;
}

export function connectRouter(options: ConnectRouterOptions): ApiRouter {
  const { config, endpoints, connect, kit, logger } = options;
  const router = Router();
  // Public and unauthenticated: limited per client IP, before a session row is written.
  router.use(...kit.policy.before, kit.policy.limit);
  router.use(
    session({
      name: CONNECT_SESSION_COOKIE,
      secret: deriveKey(config.secretKey, 'connect-session-cookie').toString('hex'),
      store: new KnexSessionStore(options.db, SESSION_TTL_MS),
      resave: false,
      saveUninitialized: false,
      cookie: { httpOnly: true, sameSite: 'lax', secure: config.baseUrl.startsWith('https://'), path: CONNECT_MOUNT_PATH, maxAge: SESSION_TTL_MS },
    }),
  );

  if (!endpoints) {
    const unavailable: RequestHandler = (_req, res) => sendShowOnlyPage(res, 503, 'provider_error', 'No profile provider is configured on this server.');
    router.get('/profile', unavailable);
    router.post('/profile', unavailable);
    router.get('/profile/callback', unavailable);
    router.use(rateLimitedPage, kit.policy.onError);
    return { name: 'connect', router, routes: [] };
  }

  const grantMiddleware = grant.express({
    defaults: { origin: config.baseUrl, prefix: CONNECT_MOUNT_PATH, transport: 'state', state: true, pkce: true },
    profile: {
      authorize_url: endpoints.authorizeUrl,
      access_url: endpoints.tokenUrl,
      oauth: 2,
      key: endpoints.clientId,
      secret: endpoints.clientSecret,
      scope: endpoints.scopes,
      scope_delimiter: ' ',
      response: ['tokens', 'raw'],
    },
  }) as unknown as RequestHandler;

  const resultCodes = new ConnectResultCodes(options.db);
  /** Posts to the opener, or in redirect mode returns to the listing page with a result code. */
  const deliver = async (res: Response, message: PopupMessage, target: { origin: string; returnTo?: ReturnTo }): Promise<void> => {
    if (!target.returnTo) return sendPostingPage(res, message, target.origin);
    // The token is not stored: the exchange issues a session for the same binding.
    const { candidate_token: _token, expires_at: _expires, ...stored } = message as PopupMessage & { candidate_token?: string; expires_at?: string };
    const code = await resultCodes.issue(target.origin, target.returnTo.clientState, stored);
    sendReturnPage(res, message, code, target.returnTo);
  };

  const start: RequestHandler = async (req, res, next) => {
    try {
      // GET: the popup. POST (a form the widget submits): redirect mode, with the page's Origin.
      const q = (req.method === 'POST' ? req.body ?? {} : req.query) as Record<string, unknown>;
      const decision = await connect.decideStart({
        organizationId: text(q.organization_id),
        listingId: text(q.listing_id),
        origin: text(q.origin),
        returnTo: text(q.return_to),
        clientState: text(q.client_state),
        startedFrom: req.method === 'POST' ? text(req.get('origin')) : undefined,
      });
      if (!decision.allowed) {
        if (decision.postTo) return await deliver(res, errorMessage(decision.code, decision.message), { origin: decision.postTo, returnTo: decision.returnTo });
        return sendShowOnlyPage(res, 400, decision.code, decision.message);
      }
      if (req.method === 'POST' && !decision.context.returnTo) {
        return sendShowOnlyPage(res, 400, 'invalid_return_to', 'A POST starts redirect mode only: send return_to and client_state');
      }
      // A fresh session id per flow: nobody can plant a session for the victim to complete.
      req.session.regenerate((error) => {
        if (error) return next(error);
        req.session.connect = decision.context;
        next();
      });
    } catch (error) {
      next(error);
    }
  };

  const callback = async (req: Request, res: Response) => {
    const context = req.session?.connect;
    const expectedState = req.session?.grant?.state;
    const response: GrantResponse = res.locals.grant?.response ?? {};
    // Single use: a replayed callback finds no session.
    if (req.session) await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    if (!context) {
      return sendShowOnlyPage(res, 400, 'state_mismatch', 'This sign-in has expired or was already completed. Close this window and try again.');
    }
    const post = (code: Parameters<typeof errorMessage>[0], message: string) => deliver(res, errorMessage(code, message), context);
    if (!sameString(text(req.query.state), expectedState)) {
      return post('state_mismatch', 'The sign-in could not be verified (state mismatch). Please try again.');
    }
    if (response.error !== undefined || !response.access_token) {
      if (req.query.error === 'access_denied') return post('consent_denied', 'You declined to share your profile.');
      logger.warn({ requestId: res.locals.requestId, providerError: typeof response.error === 'string' ? response.error.slice(0, 200) : 'token exchange failed' }, 'profile provider authorization failed');
      return post('provider_error', 'The profile provider could not complete the sign-in. Please try again.');
    }
    try {
      const expiresIn = response.raw?.expires_in;
      const result = await connect.complete(context, {
        accessToken: response.access_token,
        refreshToken: response.refresh_token,
        expiresAt: typeof expiresIn === 'number' || typeof expiresIn === 'string' ? new Date(Date.now() + Number(expiresIn) * 1000) : undefined,
      });
      await deliver(
        res,
        {
          source: MESSAGE_SOURCE,
          type: 'profile-apply:authorized',
          candidate_token: result.session.token,
          expires_at: result.session.expiresAt.toISOString(),
          profile_user_id: result.profile.id,
          organization_id: context.organizationId,
          listing_id: context.listingId,
          candidate: { name: result.profile.name, headline: result.profile.headline, profile_url: result.profile.profile_url },
        },
        context,
      );
    } catch (error) {
      if (error instanceof ConnectFailure) {
        return error.postable ? post(error.code, error.message) : sendShowOnlyPage(res, 400, error.code, error.message);
      }
      logger.error({ requestId: res.locals.requestId, err: (error as Error).message }, 'connect callback failed');
      post('provider_error', 'Something went wrong while connecting your profile. Please try again.');
    }
  };

  const form = express.urlencoded({ extended: false, limit: '8kb' });
  router.get('/profile', start, grantMiddleware);
  router.post('/profile', form, start, grantMiddleware);

  // Redirect mode's exchange: the widget, back on the listing page, trades the code for the result.
  router.post('/profile/result', form, async (req, res, next) => {
    try {
      const origin = text(req.get('origin'));
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Vary', 'Origin');
      // A simple CORS request (form-encoded, no credentials): readable by the page that sent it.
      if (origin) res.setHeader('Access-Control-Allow-Origin', origin);
      const code = text(req.body?.code);
      const clientState = text(req.body?.client_state);
      const stored = origin && code && clientState ? await resultCodes.redeem(code, clientState, origin) : undefined;
      if (!stored) {
        return sendError(res, new DomainError('invalid', 'invalid_result_code', 'This result code is unknown, expired, already used, or not for this page'));
      }
      const result = stored.result as Record<string, any>;
      if (result.type !== 'profile-apply:authorized') return void res.json(result);
      const session = connect.issueSession({ organizationId: result.organization_id, listingId: result.listing_id, profileUserId: result.profile_user_id });
      res.json({ ...result, candidate_token: session.token, expires_at: session.expiresAt.toISOString() });
    } catch (error) {
      next(error);
    }
  });
  // Without the flow's session grant cannot tell which provider answered (it would
  // redirect to its default callback); nobody trusted is known to tell either.
  const requireFlow: RequestHandler = (req, res, next) => {
    if (req.session?.connect) return next();
    sendShowOnlyPage(res, 400, 'state_mismatch', 'This sign-in has expired or was already completed. Close this window and try again.');
  };
  router.get('/profile/callback', requireFlow, grantMiddleware, (req, res, next) => void callback(req, res).catch(next));
  router.use(rateLimitedPage, kit.policy.onError);
  return { name: 'connect', router, routes: [] };
}
