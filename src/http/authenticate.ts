import type { RequestHandler } from 'express';
import { forbidden, unauthenticated } from '../domain/shared/errors';
import type { CredentialKind, CredentialVerifier, Principal } from './principal';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Resolves `Authorization: Bearer …` to a principal through the registered verifiers.
 * No credential: 401. A valid credential of a kind this route does not accept: 403.
 */
export function authenticate(accepted: readonly CredentialKind[], verifiers: readonly CredentialVerifier[]): RequestHandler {
  return async (req, res, next) => {
    if (accepted.length === 0) {
      res.locals.principal = { kind: 'public' } satisfies Principal;
      return next();
    }
    const header = req.headers.authorization;
    if (!header) return next(unauthenticated('missing_credentials', 'Send your API key as "Authorization: Bearer <key>"'));
    const token = BEARER.exec(header)?.[1];
    if (!token) return next(unauthenticated('invalid_authorization_header', 'The Authorization header must use the Bearer scheme'));
    const verifier = verifiers.find((v) => v.recognizes(token));
    if (!verifier) return next(unauthenticated('invalid_api_key', 'The credential is not recognized'));
    try {
      const principal = await verifier.verify(token);
      if (!accepted.includes(principal.kind)) {
        throw forbidden(
          principal.kind === 'operator' || !accepted.includes('operator') ? 'credential_not_permitted' : 'operator_only',
          accepted.includes('operator') && accepted.length === 1
            ? 'This call needs the operator credential'
            : `This call does not accept a ${principal.kind} credential`,
        );
      }
      res.locals.principal = principal;
      next();
    } catch (error) {
      next(error);
    }
  };
}
