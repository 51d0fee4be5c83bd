import type { RequestHandler } from 'express';
import type { Logger } from '../../kernel/logger';

/**
 * One structured line per request. The path is logged without its query string, since
 * OAuth callbacks carry codes there; headers are never logged. Once per request: the
 * plugin runs it through oncePerRequest.
 */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const fields = {
        requestId: res.locals.requestId,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      };
      if (res.statusCode >= 500) logger.error(fields, 'request failed');
      else logger.info(fields, 'request');
    });
    next();
  };
}
