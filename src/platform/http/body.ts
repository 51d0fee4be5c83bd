import express, { type RequestHandler } from 'express';
import { DomainError } from '../../kernel/errors';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './json-depth';

const hasBody = (req: Parameters<RequestHandler>[0]) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** A request whose JSON body was parsed here keeps the bytes it arrived as. */
export interface RawBodyCarrier {
  rawBody?: Buffer;
}

/**
 * JSON bodies only: a body of another type answers 415, one over the limit 413 (checked
 * against Content-Length before a byte is parsed), malformed JSON 400, JSON nested deeper
 * than MAX_JSON_DEPTH 400 `invalid_request` (checked on the raw bytes before parsing).
 */
export function jsonBody(limitBytes: number): RequestHandler[] {
  const requireJson: RequestHandler = (req, res, next) => {
    if (Number(req.headers['content-length'] ?? 0) > limitBytes) {
      // Refuse from the header alone; the unread body is not worth keeping the socket for.
      res.setHeader('Connection', 'close');
      return next(new DomainError('too_large', 'body_too_large', `The request body is larger than ${limitBytes} bytes`));
    }
    if (hasBody(req) && !req.is('application/json')) {
      return next(new DomainError('unsupported_media_type', 'unsupported_media_type', 'Request bodies must be sent as Content-Type: application/json'));
    }
    next();
  };
  const verify = (req: object, _res: unknown, buffer: Buffer) => {
    if (exceedsJsonDepth(buffer)) {
      throw new DomainError('invalid', 'invalid_request', `The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`);
    }
    // Signed webhooks (Stripe) are verified over the exact bytes received, not a re-serialization.
    (req as RawBodyCarrier).rawBody = buffer;
  };
  return [requireJson, express.json({ limit: limitBytes, strict: true, type: 'application/json', verify })];
}
