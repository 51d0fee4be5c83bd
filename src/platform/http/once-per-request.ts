import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middlewares as one, run once per request however many of the plugin's routers
 * the request passes through (each router starts with them, since a host may mount any
 * one alone). One layer instead of one per middleware per router: the apply request walks
 * four routers before it reaches its own.
 */
export function oncePerRequest(...handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (res.locals.pluginRequestStarted) return next();
    res.locals.pluginRequestStarted = true;
    let index = 0;
    const step = (error?: unknown) => {
      if (error !== undefined) return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      handler(req, res, step);
    };
    step();
  };
}
