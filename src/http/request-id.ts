import type { RequestHandler } from 'express';
import { newId } from '../domain/shared/ids';

/** Every response carries `Request-Id`; error bodies repeat it as `request_id`. */
export const requestId: RequestHandler = (req, res, next) => {
  if (!res.locals.requestId) {
    res.locals.requestId = newId('req');
    res.setHeader('Request-Id', res.locals.requestId);
  }
  next();
};
