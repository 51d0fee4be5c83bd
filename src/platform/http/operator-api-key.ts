import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthenticated } from '../../kernel/errors';
import type { CredentialVerifier, Principal } from './principal';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The single operator credential from OPERATOR_API_KEY, compared in constant time. */
export class OperatorApiKeyVerifier implements CredentialVerifier {
  readonly kind = 'operator' as const;
  private readonly expected: Buffer | undefined;

  constructor(operatorApiKey: string | undefined) {
    this.expected = operatorApiKey ? digest(operatorApiKey) : undefined;
  }

  /** Anything that is not one of our prefixed formats is tried as the operator key. */
  recognizes(token: string): boolean {
    return !/^hi[kc]_/.test(token);
  }

  async verify(token: string): Promise<Principal> {
    if (!this.expected || !timingSafeEqual(digest(token), this.expected)) {
      throw unauthenticated('invalid_api_key', 'The credential is not recognized');
    }
    return { kind: 'operator' };
  }
}
