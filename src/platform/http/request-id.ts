import type { RequestHandler } from 'express';
import { newId } from '../../kernel/ids';

/** What an incoming X-Request-Id may be to be kept: 1–128 visible characters, no spaces or quotes (it is logged and echoed). */
const INCOMING_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Every response carries `Request-Id` (and `X-Request-Id`); error bodies repeat it as
 * `request_id`. A valid incoming `X-Request-Id` (a proxy's or the caller's trace id) is
 * used as is, so one id follows the request through every log; anything else is replaced.
 */
export const requestId: RequestHandler = (req, res, next) => {
  if (!res.locals.requestId) {
    res.locals.requestId = requestIdFor(req.get('X-Request-Id'));
    res.setHeader('Request-Id', res.locals.requestId);
    res.setHeader('X-Request-Id', res.locals.requestId);
  }
  next();
};

/** The id a request is known by: a valid incoming `X-Request-Id`, or a new one. */
export function requestIdFor(incomingHeader: string | undefined): string {
  const incoming = incomingHeader?.trim();
  return incoming && INCOMING_REQUEST_ID.test(incoming) ? incoming : newId('req');
}
