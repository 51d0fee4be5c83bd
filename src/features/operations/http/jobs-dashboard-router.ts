/**
 * The job dashboard (bull-board) for operators, under the operator credential.
 *
 * A browser cannot add a Bearer header to a page load, so this router (and only this
 * one) also takes HTTP Basic: any user name, the operator key as the password. A 401
 * carries `WWW-Authenticate: Basic`, so the browser asks for it. Scripts may keep using
 * `Authorization: Bearer <OPERATOR_API_KEY>`.
 *
 * Because a browser replays Basic credentials on its own, state-changing calls (retry,
 * clean, pause...) from another origin are refused (the dashboard's own calls are
 * same-origin). Without Redis there is nothing to show: jobs run in-process, and the
 * dashboard answers 404 `jobs_dashboard_unavailable` (after the operator check).
 */
import { Router, type RequestHandler } from 'express';
import type { Queue } from 'bullmq';
import { DomainError, forbidden, unauthenticated } from '../../../kernel/errors';
import type { AuthenticationAttempt, AuthenticationThrottle } from '../../../platform/http/auth-throttle';
import type { CredentialVerifier } from '../../../platform/http/principal';
import type { ApiRouter, RouterPolicy } from '../../../platform/http/route';

const REALM = 'Basic realm="hiring-integrations jobs", charset="UTF-8"';

/** The credential of a request: a Bearer token, or the password of HTTP Basic. */
export function dashboardCredential(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!basic) return undefined;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && colon < decoded.length - 1 ? decoded.slice(colon + 1) : undefined;
}

function operatorOnly(verifiers: readonly CredentialVerifier[], throttle: AuthenticationThrottle): RequestHandler {
  return async (req, res, next) => {
    const ip = req.ip ?? 'unknown';
    const header = req.headers.authorization;
    const token = dashboardCredential(header);
    let attempt: AuthenticationAttempt;
    try {
      attempt = await throttle.begin(ip, token);
    } catch (error) {
      return next(error);
    }
    const challenge = (error: DomainError) => {
      attempt.failed();
      res.setHeader('WWW-Authenticate', REALM);
      next(error);
    };
    if (!header)
      return challenge(
        unauthenticated('missing_credentials', 'Sign in with the operator key as the password (HTTP Basic), or send "Authorization: Bearer <operator key>"'),
      );
    if (!token) return challenge(unauthenticated('invalid_authorization_header', 'The Authorization header must use the Basic or Bearer scheme'));
    const verifier = verifiers.find((v) => v.recognizes(token));
    if (!verifier) return challenge(unauthenticated('invalid_api_key', 'The credential is not recognized'));
    try {
      const principal = await verifier.verify(token);
      await attempt.release();
      if (principal.kind !== 'operator') return next(forbidden('operator_only', 'The job dashboard needs the operator credential'));
      res.locals.principal = principal;
      next();
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'unauthenticated') return challenge(error);
      await attempt.release();
      next(error);
    }
  };
}

/** Unsafe methods must come from the dashboard's own origin (or from no browser at all). */
const sameOriginWrites: RequestHandler = (req, _res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
  const origin = req.get('origin');
  const site = req.get('sec-fetch-site');
  let foreign = site !== undefined && site !== 'same-origin' && site !== 'none';
  if (origin !== undefined) {
    try {
      foreign ||= new URL(origin).host !== req.get('host');
    } catch {
      foreign = true;
    }
  }
  if (foreign) return next(forbidden('cross_origin_refused', 'Dashboard actions are accepted from the dashboard page only'));
  next();
};

export interface DashboardQueues {
  /** The BullMQ queues to show; undefined in embedded mode (no Redis). */
  queues(): Queue[] | undefined;
}

export function jobsDashboardRouter(source: DashboardQueues, verifiers: readonly CredentialVerifier[], policy: RouterPolicy): ApiRouter {
  const router = Router();
  router.use(...policy.before);
  router.use(operatorOnly(verifiers, policy.throttle));
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Frame-Options', 'DENY');
    next();
  });
  router.use(sameOriginWrites);

  // Built on the first authorized request, when the path the host mounted us at is known.
  let board: Router | undefined;
  router.use((req, res, next) => {
    const queues = source.queues();
    if (!queues) {
      return next(
        new DomainError(
          'not_found',
          'jobs_dashboard_unavailable',
          'No job dashboard in embedded mode: jobs run in-process. Set REDIS_URL and run `hiring-integrations worker` to get one.',
        ),
      );
    }
    if (!board) {
      // Loaded lazily: the UI package is large, and embedded mode never needs it.
      const { createBullBoard } = require('@bull-board/api') as typeof import('@bull-board/api');
      const { BullMQAdapter } = require('@bull-board/api/bullMQAdapter') as typeof import('@bull-board/api/bullMQAdapter');
      const { ExpressAdapter } = require('@bull-board/express') as typeof import('@bull-board/express');
      const serverAdapter = new ExpressAdapter();
      serverAdapter.setBasePath(req.baseUrl);
      createBullBoard({
        queues: queues.map((queue) => new BullMQAdapter(queue)),
        serverAdapter,
        options: { uiConfig: { boardTitle: 'hiring-integrations jobs' } },
      });
      board = serverAdapter.getRouter() as Router;
    }
    board(req, res, next);
  });
  router.use(policy.onError);
  return { name: 'jobs-dashboard', router, routes: [] };
}
