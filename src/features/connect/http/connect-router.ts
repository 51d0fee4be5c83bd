/**
 * The connect flow under /v1/connect, opened in the widget's popup:
 *   GET /profile?organization_id&listing_id&origin  → checks, then grant redirects to the
 *       provider with `state` and PKCE (S256)
 *   POST /profile (form: the same + return_to, client_state)  → redirect mode, when the popup
 *       was blocked: only from the listing page itself (its `Origin` header) and only back to
 *       a URL the organization registered
 *   GET /profile/callback  → we check state, exchange the code at the token endpoint
 *       ourselves (the client authentication the provider expects, its errors told apart),
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
import type { Config } from '../../../kernel/config';
import type { RouterKit } from '../../../platform/http/router-kit';
import { ConnectFailure, ConnectService, type ConnectContext } from '../domain/connect-service';
import { isDomainError } from '../../../kernel/errors';
import type { Logger } from '../../../kernel/logger';
import { PROVIDER_FAILURE_MESSAGES, providerFailureCode } from '../domain/provider-failure';
import type { OAuthProfileProvider } from '../../profiles/provider/oauth-profile-provider';
import { deriveKey } from '../../../platform/security/key-derivation';
import type { ApiRouter } from '../../../platform/http/route';
import type { ConnectResultCodes } from '../storage/connect-result-codes';
import { DomainError } from '../../../kernel/errors';
import { sendError } from '../../../platform/http/errors';
import { errorMessage, MESSAGE_SOURCE, sendPostingPage, sendReturnPage, sendShowOnlyPage, type PopupMessage } from './popup-page';
import type { ReturnTo } from '../domain/connect-service';

export const CONNECT_MOUNT_PATH = '/v1/connect';
export const CONNECT_SESSION_COOKIE = 'hi_connect';
export const SESSION_TTL_MS = 15 * 60_000;

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

/** Authorization-request errors (RFC 6749 §4.1.2.1) that mean our client or its configuration is wrong. */
const CLIENT_CONFIGURATION_ERRORS = ['unauthorized_client', 'invalid_client', 'invalid_scope', 'invalid_request', 'unsupported_response_type'];

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
  /** Where grant's session rows live (express-session's Store port): shared by every API process. */
  sessionStore: session.Store;
  /** Redirect mode's single-use result codes. */
  resultCodes: ConnectResultCodes;
  /** undefined when no provider is configured and the sandbox is off. */
  provider: OAuthProfileProvider | undefined;
  connect: ConnectService;
  kit: RouterKit;
  logger: Logger;
  /** The router's full path on the host (mount path + CONNECT_MOUNT_PATH): the cookie's path and grant's prefix. */
  mountPath?: string;
}

export function connectRouter(options: ConnectRouterOptions): ApiRouter {
  const { config, provider, connect, kit, logger } = options;
  const mountPath = options.mountPath ?? CONNECT_MOUNT_PATH;
  const router = Router();
  // Public and unauthenticated: limited per client IP, before a session row is written.
  router.use(...kit.policy.before, kit.policy.limit);
  router.use(
    session({
      name: CONNECT_SESSION_COOKIE,
      secret: deriveKey(config.secretKey, 'connect-session-cookie').toString('hex'),
      store: options.sessionStore,
      resave: false,
      saveUninitialized: false,
      cookie: { httpOnly: true, sameSite: 'lax', secure: config.baseUrl.startsWith('https://'), path: mountPath, maxAge: SESSION_TTL_MS },
    }),
  );

  if (!provider) {
    const unavailable: RequestHandler = (_req, res) => sendShowOnlyPage(res, 503, 'provider_error', 'No profile provider is configured on this server.');
    router.get('/profile', unavailable);
    router.post('/profile', unavailable);
    router.get('/profile/callback', unavailable);
    router.use(rateLimitedPage, kit.policy.onError);
    return { name: 'connect', router, routes: [] };
  }

  // grant builds the authorize redirect (state, PKCE S256, scopes, extra parameters); the
  // authorize URL is set per request, since discovery may find it only later.
  const settings = provider.settings;
  const grantMiddleware = grant.express({
    // grant matches requests on the full path (prefix); the redirect URI is the plugin's public URL of the callback.
    defaults: { origin: new URL(config.baseUrl).origin, prefix: mountPath, transport: 'state', state: true, pkce: true },
    profile: {
      authorize_url: settings.authorizeUrl ?? `${settings.issuer}/authorize`,
      oauth: 2,
      key: settings.clientId,
      scope: settings.scopes,
      scope_delimiter: settings.scopeDelimiter,
      custom_params: settings.authorizeParams,
      // No query parameter of the start may override the configuration; only our own
      // per-request override (res.locals.grant.dynamic) applies.
      redirect_uri: `${config.baseUrl}${CONNECT_MOUNT_PATH}/profile/callback`,
      dynamic: [],
    },
  }) as unknown as RequestHandler & { config: { profile: { redirect_uri: string } } };
  const redirectUri = grantMiddleware.config.profile.redirect_uri;

  const resultCodes = options.resultCodes;
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
      const q = (req.method === 'POST' ? (req.body ?? {}) : req.query) as Record<string, unknown>;
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
      let authorizeUrl: string;
      try {
        authorizeUrl = (await provider.endpoints()).authorizeUrl;
      } catch (error) {
        const code = providerFailureCode(error);
        return await deliver(res, errorMessage(code, PROVIDER_FAILURE_MESSAGES[code]), decision.context);
      }
      const dynamic: Record<string, unknown> = { authorize_url: authorizeUrl };
      if (settings.describesRequest) {
        // The sandbox's consent page names the organization and listing (never sent to a configured provider).
        const { organizationName, listingTitle } = await connect.describe(decision.context);
        dynamic.custom_params = { ...settings.authorizeParams, hi_organization: organizationName, hi_listing: listingTitle };
      }
      res.locals.grant = { dynamic };
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
    const codeVerifier = req.session?.grant?.code_verifier;
    // Single use: a replayed callback finds no session.
    if (req.session) await new Promise<void>((resolve) => req.session.destroy(() => resolve()));
    if (!context) {
      return sendShowOnlyPage(res, 400, 'state_mismatch', 'This sign-in has expired or was already completed. Close this window and try again.');
    }
    const post = (code: Parameters<typeof errorMessage>[0], message: string) => deliver(res, errorMessage(code, message), context);
    if (!sameString(text(req.query.state), expectedState)) {
      return post('state_mismatch', 'The sign-in could not be verified (state mismatch). Please try again.');
    }
    const providerError = text(req.query.error);
    if (providerError === 'access_denied') return post('consent_denied', 'You declined to share your profile.');
    const code = text(req.query.code);
    if (providerError !== undefined || !code) {
      const configuration = CLIENT_CONFIGURATION_ERRORS.includes(providerError ?? '');
      const fields = {
        requestId: res.locals.requestId,
        provider: { step: 'authorize', error: providerError?.slice(0, 100), error_description: text(req.query.error_description)?.slice(0, 300) },
      };
      if (configuration)
        logger.error(
          fields,
          `profile provider refused our authorization request (${providerError}): check PROFILE_PROVIDER_CLIENT_ID, PROFILE_PROVIDER_SCOPES and PROFILE_PROVIDER_AUTHORIZE_PARAMS`,
        );
      else
        logger.warn(
          fields,
          providerError ? `profile provider refused the authorization (${providerError.slice(0, 100)})` : 'profile provider came back without a code',
        );
      const failure = configuration ? 'provider_client_rejected' : 'provider_error';
      return post(failure, PROVIDER_FAILURE_MESSAGES[failure]);
    }
    try {
      let tokens;
      try {
        tokens = await provider.exchangeCode({ code, redirectUri, codeVerifier });
      } catch (error) {
        const failure = providerFailureCode(error);
        return post(failure, PROVIDER_FAILURE_MESSAGES[failure]);
      }
      const result = await connect.complete(context, tokens);
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
          candidate: {
            name: result.profile.name,
            headline: result.profile.headline,
            profile_url: result.profile.profile_url,
            // Only a verified email prefills the widget's contact field (the candidate may change it).
            ...(result.profile.email && result.profile.email_verified === true ? { email: result.profile.email } : {}),
          },
          ...(result.alreadyApplied
            ? { already_applied: { application_id: result.alreadyApplied.applicationId, applied_at: result.alreadyApplied.appliedAt.toISOString() } }
            : {}),
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
  router.get('/profile/callback', requireFlow, (req, res, next) => void callback(req, res).catch(next));
  router.use(rateLimitedPage, kit.policy.onError);
  return { name: 'connect', router, routes: [] };
}
