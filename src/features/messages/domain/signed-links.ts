/**
 * Links in messages that act without a login (unsubscribe, confirm a call sheet): the
 * query carries `token = base64url(JSON claims) "." base64url(HMAC-SHA256)`, keyed by a key
 * derived from SECRET_KEY for this purpose only. The claims name a record id, never an
 * email address (URLs end up in logs). A token that does not verify, has the wrong
 * purpose or has expired is refused with a stable 4xx code.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError, invalid } from '../../../kernel/errors';

export type LinkPurpose =
  | 'unsubscribe'
  | 'call_sheet_confirm'
  | 'call_sheet_view'
  | 'timesheet_review'
  | 'shift_confirm'
  | 'shift_feed'
  | 'employee_document_upload'
  /** A sourcing invitation's opt-out: withdraws the candidate's consent to be contacted again. */
  | 'sourcing_unsubscribe';

export interface LinkClaims {
  /** What the link does. */
  p: LinkPurpose;
  /** The organization. */
  o: string;
  /** The record it acts on. */
  r: string;
  /** Expiry, seconds since the epoch (absent: does not expire). */
  x?: number;
}

export const MESSAGE_LINK_KEY = Symbol('MessageLinkKey');

const b64 = (value: Buffer | string) => Buffer.from(value).toString('base64url');

export class SignedLinks {
  constructor(private readonly key: Buffer) {}

  sign(claims: LinkClaims): string {
    const body = b64(JSON.stringify(claims));
    return `${body}.${this.mac(body)}`;
  }

  /** The claims of a token made by `sign` for `purpose`; `link_invalid` / `link_expired` otherwise. */
  verify(token: string, purpose: LinkPurpose, now: Date): LinkClaims {
    const [body, mac, extra] = token.split('.');
    const expected = body ? Buffer.from(this.mac(body)) : undefined;
    const given = Buffer.from(mac ?? '');
    if (!body || extra !== undefined || !expected || expected.length !== given.length || !timingSafeEqual(expected, given)) throw linkInvalid();
    let claims: LinkClaims;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LinkClaims;
    } catch {
      throw linkInvalid();
    }
    if (claims?.p !== purpose || typeof claims.o !== 'string' || typeof claims.r !== 'string') throw linkInvalid();
    if (typeof claims.x === 'number' && claims.x * 1000 < now.getTime()) throw new DomainError('gone', 'link_expired', 'This link has expired');
    return claims;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

const linkInvalid = () => invalid('link_invalid', 'This link is not valid: it may have been changed or cut short', 'token');
