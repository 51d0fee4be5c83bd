/**
 * The connect flow under /v1/connect, opened in the widget's popup:
 *   GET /profile?organization_id&listing_id&origin[&return_to&client_state]  → checks, then
 *       grant redirects to the provider with `state` and PKCE (S256)
 *   GET /profile/callback  → grant exchanges the code; we check state ourselves too,
 *       store the authorization (and its import job), and post the result to the opener
 *       (or, when the popup was blocked, redirect back to `return_to` with it).
 * grant keeps its state in an express-session whose rows live in the database, so the
 * callback may land on another API process than the start.
 */
import { timingSafeEqual } from 'node:crypto';
import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
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
import { deliverResult, errorMessage, MESSAGE_SOURCE, sendShowOnlyPage } from './popup-page';

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
  /** The router's full path on the host (mount path + CONNECT_MOUNT_PATH): the cookie's path and grant's prefix. */
  mountPath?: string;
}

export function connectRouter(options: ConnectRouterOptions): ApiRouter {
  const { config, endpoints, connect, kit, logger } = options;
  const mountPath = options.mountPath ?? CONNECT_MOUNT_PATH;
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
      cookie: { httpOnly: true, sameSite: 'lax', secure: config.baseUrl.startsWith('https://'), path: mountPath, maxAge: SESSION_TTL_MS },
    }),
  );

  if (!endpoints) {
    const unavailable: RequestHandler = (_req, res) => sendShowOnlyPage(res, 503, 'provider_error', 'No profile provider is configured on this server.');
    router.get('/profile', unavailable);
    router.get('/profile/callback', unavailable);
    router.use(rateLimitedPage, kit.policy.onError);
    return { name: 'connect', router, routes: [] };
  }

  const grantMiddleware = grant.express({
    // grant matches requests on the full path (prefix); the redirect URI is the plugin's public URL of the callback.
    defaults: { origin: new URL(config.baseUrl).origin, prefix: mountPath, transport: 'state', state: true, pkce: true },
    profile: {
      authorize_url: endpoints.authorizeUrl,
      access_url: endpoints.tokenUrl,
      oauth: 2,
      key: endpoints.clientId,
      secret: endpoints.clientSecret,
      scope: endpoints.scopes,
      scope_delimiter: ' ',
      response: ['tokens', 'raw'],
      redirect_uri: `${config.baseUrl}${CONNECT_MOUNT_PATH}/profile/callback`,
    },
  }) as unknown as RequestHandler;

  const start: RequestHandler = async (req, res, next) => {
    try {
      const q = req.query as Record<string, unknown>;
      const decision = await connect.decideStart({
        organizationId: text(q.organization_id),
        listingId: text(q.listing_id),
        origin: text(q.origin),
        returnTo: text(q.return_to),
        clientState: text(q.client_state),
      });
      if (!decision.allowed) {
        if (decision.postTo) return deliverResult(res, errorMessage(decision.code, decision.message), { origin: decision.postTo, returnTo: decision.returnTo });
        return sendShowOnlyPage(res, 400, decision.code, decision.message);
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
    const post = (code: Parameters<typeof errorMessage>[0], message: string) => deliverResult(res, errorMessage(code, message), context);
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
      deliverResult(
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

  router.get('/profile', start, grantMiddleware);
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
