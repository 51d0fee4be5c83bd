/**
 * A JSON body parser that also keeps the bytes as received (`req.rawBody`): a vendor's
 * webhook signature is computed over them, and re-serialized JSON would not match.
 * Same limits as the API's parser: JSON only (415), the size limit (413), malformed 400.
 */
import express, { type RequestHandler } from 'express';
import { DomainError } from '../../../kernel/errors';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../../platform/http/json-depth';

export function rawJsonBody(limitBytes: number): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    if (Number(req.headers['content-length'] ?? 0) > limitBytes)
      return next(new DomainError('too_large', 'body_too_large', `The request body is larger than ${limitBytes} bytes`));
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (hasBody && !req.is('application/json'))
      return next(new DomainError('unsupported_media_type', 'unsupported_media_type', 'Request bodies must be sent as Content-Type: application/json'));
    next();
  };
  const keep = (req: unknown, _res: unknown, buffer: Buffer) => {
    if (exceedsJsonDepth(buffer))
      throw new DomainError('invalid', 'invalid_request', `The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels`);
    (req as { rawBody?: Buffer }).rawBody = Buffer.from(buffer);
  };
  return [requireJson, express.json({ limit: limitBytes, strict: true, type: 'application/json', verify: keep })];
}
