/**
 * After dispose() the host may still route requests to the routers it mounted (hosts
 * rarely unmount): each router answers 503 `plugin_disposed` in the error model instead of
 * reaching a disposed container, database pool or metrics registry. Written on the bare
 * Node response, since nothing of the disposed activation may run.
 */
import type { HttpRouter } from '../../host/contract';
import { requestIdFor } from './request-id';

export function untilDisposed(router: HttpRouter, isDisposed: () => boolean): HttpRouter {
  return (req, res, next) => {
    if (!isDisposed()) return router(req, res, next);
    const header = req.headers['x-request-id'];
    const requestId = requestIdFor(Array.isArray(header) ? header[0] : header);
    const body = JSON.stringify({
      error: {
        code: 'plugin_disposed',
        message: 'This plugin instance has been shut down (dispose()); the host has to activate it again',
        request_id: requestId,
      },
    });
    res.writeHead(503, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Request-Id': requestId,
      'X-Request-Id': requestId,
      'Cache-Control': 'no-store',
    });
    res.end(body);
  };
}
