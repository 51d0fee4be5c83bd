import type { RequestHandler } from 'express';
import { forbidden, isDomainError, unauthenticated } from '../../kernel/errors';
import type { AuthenticationAttempt, AuthenticationThrottle } from './auth-throttle';
import type { CredentialKind, CredentialVerifier, Principal } from './principal';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Resolves `Authorization: Bearer …` to a principal through the registered verifiers.
 * No credential: 401. A valid credential of a kind this route does not accept: 403.
 * With a throttle, each attempt takes a point of the client IP's and key prefix's failure
 * budget before anything is verified (429 past it); a 401 keeps it, anything else gives
 * it back.
 */
export function authenticate(accepted: readonly CredentialKind[], verifiers: readonly CredentialVerifier[], throttle?: AuthenticationThrottle): RequestHandler {
  return async (req, res, next) => {
    if (accepted.length === 0) {
      res.locals.principal = { kind: 'public' } satisfies Principal;
      return next();
    }
    const ip = req.ip ?? 'unknown';
    const header = req.headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    let attempt: AuthenticationAttempt | undefined;
    try {
      attempt = await throttle?.begin(ip, token);
      if (!header) throw unauthenticated('missing_credentials', 'Send your API key as "Authorization: Bearer <key>"');
      if (!token) throw unauthenticated('invalid_authorization_header', 'The Authorization header must use the Bearer scheme');
      const verifier = verifiers.find((v) => v.recognizes(token));
      if (!verifier) throw unauthenticated('invalid_api_key', 'The credential is not recognized');
      const principal = await verifier.verify(token);
      if (!accepted.includes(principal.kind)) {
        throw forbidden(
          principal.kind === 'operator' || !accepted.includes('operator') ? 'credential_not_permitted' : 'operator_only',
          accepted.includes('operator') && accepted.length === 1
            ? 'This call needs the operator credential'
            : `This call does not accept a ${principal.kind} credential`,
        );
      }
      await attempt?.release();
      res.locals.principal = principal;
      next();
    } catch (error) {
      if (isDomainError(error) && error.kind === 'unauthenticated') attempt?.failed();
      else await attempt?.release();
      next(error);
    }
  };
}
