/**
 * A route is declared once: method, path, credential kinds, zod schemas for params,
 * query and body, and a handler. The same declaration validates requests and feeds
 * /v1/openapi.json, so the two cannot drift.
 */
import { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { AuthenticationThrottle } from './auth-throttle';
import type { CredentialKind, Principal } from './principal';
import { parseOrThrow, rejectNulCharacters } from './validation';
import { idempotencyErrors, parseIdempotencyKey, requestHash, type IdempotencyStore } from './idempotency';

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  principal: Principal;
  req: Request;
  res: Response;
}

/** A handler result with its own status or headers; a plain value answers `route.status`. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

export const reply = (status: number, body?: unknown, headers?: Record<string, string>): Reply => new Reply(status, body, headers);

export interface RouteDefinition<P = unknown, Q = unknown, B = unknown> {
  method: HttpMethod;
  /** Express-style, relative to the router's mount path: `/licenses/:action_key/activate`. */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  /** Credential kinds accepted; an empty list means public. */
  auth: readonly CredentialKind[];
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /** Honour `Idempotency-Key` (POST routes that create things). */
  idempotent?: boolean;
  /**
   * For an idempotent route whose repository records its creation on the key: the answer
   * for `effectId` when the first attempt created it but its answer was lost.
   */
  replayEffect?: (effectId: string, input: RouteInput<P, Q, B>) => Promise<unknown | Reply>;
  /** Status of a plain (non-Reply) handler result. */
  status?: number;
  /** Schema of the success body (`status`, and every status of `alsoAnswers`). */
  response?: z.ZodType;
  /** Other success statuses a handler's Reply may use, with the same body schema (activate: 200 and 202). */
  alsoAnswers?: readonly number[];
  /** Media type(s) of a non-JSON success body (metrics: text/plain; an invoice document: HTML or PDF). */
  produces?: string | readonly string[];
  /**
   * Error statuses this route answers beyond those its declaration implies (400 for
   * input, 401/403 for credentials, 404 for path ids, 409 for idempotency, 413/415 for
   * bodies, 429, 500, 503): e.g. 410 listing_closed. Documented in /v1/openapi.json.
   */
  errors?: readonly number[];
  /**
   * The audit trail records every authenticated call of a mutating route (any status);
   * 'read' records a GET too (a candidate's full record); false: never (health checks).
   */
  audit?: 'read' | false;
  /** Which rate-limit budget applies (default: the API budget); false: never limited (health checks). */
  rateLimit?: false;
  handler: (input: RouteInput<P, Q, B>) => Promise<unknown | Reply>;
}

export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined>(route: RouteDefinition<P, Q, B>): RouteDefinition<P, Q, B> {
  return route;
}

/** What a router module hands the plugin: the Express router and its declarations. */
export interface ApiRouter {
  name: string;
  router: Router;
  routes: RouteDefinition<any, any, any>[];
}

export interface RouterPolicy {
  /** Runs before every route of the router (request id, metrics). */
  before: RequestHandler[];
  /** Per-route middleware before validation: authentication, rate limiting, body parsing. */
  guards: (route: RouteDefinition<any, any, any>) => Array<RequestHandler | ErrorRequestHandler>;
  /** The connect popup's own budget, per client IP, for routers outside the declared API. */
  limit: RequestHandler;
  /** The public budget per client IP, for CORS preflights and the sandbox provider. */
  limitPublic: RequestHandler;
  /** Failed-authentication budget (per IP and key prefix) for hand-built credential checks (the job dashboard). */
  throttle: AuthenticationThrottle;
  /** The plugin formats its own errors, whatever host it is mounted in. */
  onError: ErrorRequestHandler;
  idempotency: IdempotencyStore;
  /** Called once an audited route has answered (see RouteDefinition.audit). */
  audit?: (call: AuditedCall) => void;
  /** Whether the audit trail keeps values for this route: then the resource is read before the call, for the diff. */
  auditValues?: (route: RouteDefinition<any, any, any>) => boolean;
}

/** What the audit trail learns of one answered call. */
export interface AuditedCall {
  route: RouteDefinition<any, any, any>;
  principal: Principal;
  req: Request;
  status: number;
  requestId: string | null;
  /** The request body and the answer, as the handler saw and gave them. */
  request: unknown;
  response: unknown;
  /** The resource as its own GET route answered just before the call (undefined: no such route, or not found). */
  before?: unknown;
}

const isAudited = (route: RouteDefinition<any, any, any>) => route.audit !== false && (route.method !== 'get' || route.audit === 'read');

/** Runs after the guards (so only authenticated calls), reports the call once its answer is sent. */
function auditOnFinish(route: RouteDefinition<any, any, any>, audit: NonNullable<RouterPolicy['audit']>): RequestHandler {
  return (req, res, next) => {
    res.once('finish', () =>
      audit({
        route,
        principal: res.locals.principal ?? { kind: 'public' },
        req,
        status: res.statusCode,
        requestId: res.locals.requestId ?? null,
        request: req.body,
        response: res.locals.auditResponse,
        before: res.locals.auditBefore,
      }),
    );
    next();
  };
}

/**
 * The GET route that reads the resource a mutating route changes: the same path (PATCH/DELETE
 * /webhook_endpoints/:id, PATCH /settings), else the longest path ending in a parameter that
 * prefixes it (POST /keys/:key_id/rotate reads /keys/:key_id). Reads of a candidate's record
 * (`audit: 'read'`) are never used.
 */
export function resourceReader(
  route: RouteDefinition<any, any, any>,
  routes: readonly RouteDefinition<any, any, any>[],
): RouteDefinition<any, any, any> | undefined {
  if (route.method === 'get') return undefined;
  const reads = routes.filter((r) => r.method === 'get' && r.audit === undefined);
  const same = reads.find((r) => r.path === route.path);
  if (same) return same;
  return reads.filter((r) => /\/:[A-Za-z_]+$/.test(r.path) && route.path.startsWith(`${r.path}/`)).sort((a, b) => b.path.length - a.path.length)[0];
}

/** The resource's state before the call, read through its own GET handler as the caller; undefined when it cannot be read. */
async function readBefore(reader: RouteDefinition<any, any, any>, principal: Principal, req: Request, res: Response): Promise<unknown> {
  if (!reader.auth.includes(principal.kind as CredentialKind)) return undefined;
  const params = reader.params ? reader.params.safeParse(req.params) : { success: true as const, data: req.params };
  const query = reader.query ? reader.query.safeParse({}) : { success: true as const, data: {} };
  if (!params.success || !query.success) return undefined;
  try {
    const result = await reader.handler({ params: params.data, query: query.data, body: undefined, principal, req, res });
    return result instanceof Reply ? result.body : result;
  } catch {
    return undefined;
  }
}

function scopeOf(principal: Principal): string {
  switch (principal.kind) {
    case 'organization':
      return `org:${principal.organizationId}`;
    case 'candidate':
      return `candidate:${principal.organizationId}:${principal.profileUserId}`;
    default:
      return principal.kind;
  }
}

/** Builds an Express router from declarations, under the composition root's policy. */
export function buildRouter(name: string, routes: RouteDefinition<any, any, any>[], policy: RouterPolicy): ApiRouter {
  const router = Router();
  if (policy.before.length > 0) router.use(...policy.before);
  for (const route of routes) {
    const audit = policy.audit && isAudited(route) ? [auditOnFinish(route, policy.audit)] : [];
    const reader = audit.length > 0 && policy.auditValues?.(route) ? resourceReader(route, routes) : undefined;
    router[route.method](route.path, ...policy.guards(route), ...audit, async (req: Request, res: Response) => {
      rejectNulCharacters({ params: req.params, query: req.query, body: req.body });
      const params = route.params ? parseOrThrow(route.params, req.params, 'path') : req.params;
      const query = route.query ? parseOrThrow(route.query, req.query, 'query') : req.query;
      const body = route.body ? parseOrThrow(route.body, req.body ?? {}, 'body') : undefined;
      const principal: Principal = res.locals.principal ?? { kind: 'public' };
      const idempotencyKey = route.idempotent ? parseIdempotencyKey(req.get('Idempotency-Key')) : undefined;
      const scope = scopeOf(principal);
      if (idempotencyKey) {
        const begun = await policy.idempotency.begin(scope, idempotencyKey, requestHash(req.method, req.originalUrl, req.body));
        if (begun.state === 'mismatch') throw idempotencyErrors.mismatch();
        if (begun.state === 'in_progress') throw idempotencyErrors.inProgress(begun.retryAfterSeconds);
        if (begun.state === 'replay') {
          res.setHeader('Idempotent-Replayed', 'true');
          res.status(begun.response.status).json(begun.response.body);
          return;
        }
        if (begun.state === 'effect') {
          if (!route.replayEffect) throw idempotencyErrors.inProgress();
          const replayed = await route.replayEffect(begun.effectId, { params, query, body, principal, req, res });
          const status = replayed instanceof Reply ? replayed.status : (route.status ?? 200);
          const payload = replayed instanceof Reply ? replayed.body : replayed;
          await policy.idempotency.complete(scope, idempotencyKey, { status, body: payload });
          res.setHeader('Idempotent-Replayed', 'true');
          res.status(status).json(payload);
          return;
        }
      }
      if (reader) res.locals.auditBefore = await readBefore(reader, principal, req, res);
      let result: unknown;
      try {
        const run = () => route.handler({ params, query, body, principal, req, res });
        result = idempotencyKey ? await policy.idempotency.hold(scope, idempotencyKey, run) : await run();
      } catch (error) {
        // Best effort: if the database is away too, the key's lease lapses on its own.
        if (idempotencyKey) await policy.idempotency.release(scope, idempotencyKey).catch(() => undefined);
        throw error;
      }
      if (res.headersSent) return;
      const status = result instanceof Reply ? result.status : (route.status ?? 200);
      const payload = result instanceof Reply ? result.body : result;
      if (result instanceof Reply) for (const [header, value] of Object.entries(result.headers)) res.setHeader(header, value);
      if (idempotencyKey) await policy.idempotency.complete(scope, idempotencyKey, { status, body: payload });
      res.locals.auditResponse = payload;
      if (payload === undefined) res.status(status).end();
      else res.status(status).json(payload);
    });
  }
  router.use(policy.onError);
  return { name, router, routes };
}

export { z };
