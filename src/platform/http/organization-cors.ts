/**
 * CORS for the endpoints the widget calls from listing pages: the request's Origin is
 * echoed only when it is one of the organization's allowed origins (with Vary: Origin);
 * any other origin gets no CORS headers at all, so the browser blocks the read.
 * Preflights are answered here, before authentication, as browsers send them without
 * credentials.
 */
import type { RequestHandler } from 'express';
import type { Logger } from '../../kernel/logger';

export const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key';
export const CORS_EXPOSED_HEADERS = 'Request-Id, Idempotent-Replayed, Retry-After';

/** Resolves the allowed origins of the organization a request concerns. */
export type AllowedOriginsResolver = (params: Record<string, string>) => Promise<readonly string[]>;

export function organizationCors(resolve: AllowedOriginsResolver, logger: Logger): RequestHandler {
  return async (req, res, next) => {
    res.vary('Origin');
    const origin = req.headers.origin;
    let allowed = false;
    if (origin) {
      try {
        allowed = (await resolve(req.params as Record<string, string>)).includes(origin);
      } catch (error) {
        logger.warn({ err: (error as Error).message }, 'CORS origin lookup failed');
      }
    }
    if (allowed) {
      res.setHeader('Access-Control-Allow-Origin', origin!);
      res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS);
    }
    if (req.method !== 'OPTIONS') return next();
    if (allowed) {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
      res.setHeader('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS);
      res.setHeader('Access-Control-Max-Age', '600');
    }
    res.status(204).end();
  };
}
