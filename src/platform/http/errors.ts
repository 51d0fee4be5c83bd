/**
 * The error model, mapped to HTTP in this one place:
 * `{"error":{"code","message","param"?,"request_id"}}`. Bad input never becomes a 5xx.
 */
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { DomainError, isDomainError, wasLogged, type ErrorKind } from '../../kernel/errors';
import type { Logger } from '../../kernel/logger';
import { errorFields } from '../logging/error-fields';
import { isAvailabilityError, serviceUnavailable } from '../../kernel/availability';

const STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  upstream: 503,
};

export function statusOf(error: DomainError): number {
  if (error.kind === 'upstream' && error.details.status === 502) return 502;
  return STATUS[error.kind];
}

/** body-parser and express raise plain errors with a `type`; give them codes. */
function fromFrameworkError(error: { type?: string; status?: number; message?: string }): DomainError | undefined {
  switch (error.type) {
    case 'entity.too.large':
      return new DomainError('too_large', 'body_too_large', 'The request body is larger than this endpoint accepts');
    case 'entity.parse.failed':
      return new DomainError('invalid', 'invalid_json', 'The request body is not valid JSON');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new DomainError('unsupported_media_type', 'unsupported_encoding', error.message ?? 'Unsupported body encoding');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new DomainError('invalid', 'invalid_request', 'The request body could not be read');
  }
  if (error.status && error.status >= 400 && error.status < 500) {
    return new DomainError('invalid', 'invalid_request', error.message ?? 'Bad request');
  }
  return undefined;
}

export function sendError(res: Response, error: DomainError): void {
  const body: Record<string, unknown> = { code: error.code, message: error.message };
  if (error.details.param !== undefined) body.param = error.details.param;
  for (const [key, value] of Object.entries(error.details)) {
    if (key !== 'param' && key !== 'retryAfterSeconds' && key !== 'status' && value !== undefined) body[key] = value;
  }
  body.request_id = res.locals.requestId;
  if (error.details.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.details.retryAfterSeconds));
  res.status(statusOf(error)).json({ error: body });
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const known = isDomainError(error) ? error : fromFrameworkError(error);
    if (!known && isAvailabilityError(error)) {
      // An outage, not a bug: 503 with Retry-After. The outage itself is logged once per
      // state change by the connection's watcher, so each request only logs at debug.
      logger.debug({ requestId: res.locals.requestId, err: String(error?.message ?? error).slice(0, 200) }, 'dependency unavailable');
      return sendError(res, serviceUnavailable());
    }
    if (known) {
      if (known.kind === 'upstream' && !wasLogged(known)) logger.warn({ requestId: res.locals.requestId, code: known.code }, known.message);
      return sendError(res, known);
    }
    logger.error({ requestId: res.locals.requestId, method: req.method, path: req.path, err: errorFields(error) }, 'unhandled error');
    res.status(500).json({
      error: { code: 'internal_error', message: 'Something went wrong on our side', request_id: res.locals.requestId },
    });
  };
}

export const notFoundHandler: RequestHandler = (req, res) => {
  sendError(res, new DomainError('not_found', 'route_not_found', `No route for ${req.method} ${req.path}`));
};
