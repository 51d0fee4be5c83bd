/**
 * The `source` of an invitation's apply link: `sourcing.<invitation id>.<signature>`, the
 * signature an HMAC-SHA256 (a key derived for this purpose) over the organization, listing,
 * candidate and invitation, cut to 128 bits. It cannot be moved to another listing or
 * candidate; whether it was used already is the invitation's record.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'sourcing.';
const SHAPE = /^sourcing\.(sinv_[0-9A-Za-z_-]{1,64})\.([A-Za-z0-9_-]{22})$/;

export interface InvitationSubject {
  organizationId: string;
  listingId: string;
  profileUserId: string;
  invitationId: string;
}

export class InvitationTokens {
  constructor(private readonly key: Buffer) {}

  static looksLikeOne(source: string): boolean {
    return source.startsWith(PREFIX);
  }

  issue(subject: InvitationSubject): string {
    return `${PREFIX}${subject.invitationId}.${this.signature(subject).toString('base64url')}`;
  }

  /** The invitation id when the token verifies for this organization, listing and candidate. */
  invitationOf(subject: Omit<InvitationSubject, 'invitationId'>, token: string): string | undefined {
    const match = SHAPE.exec(token);
    if (!match) return undefined;
    const invitationId = match[1]!;
    const given = Buffer.from(match[2]!, 'base64url');
    if (given.length !== 16) return undefined;
    return timingSafeEqual(given, this.signature({ ...subject, invitationId })) ? invitationId : undefined;
  }

  private signature(s: InvitationSubject): Buffer {
    return createHmac('sha256', this.key).update(`${s.organizationId}\n${s.listingId}\n${s.profileUserId}\n${s.invitationId}`).digest().subarray(0, 16);
  }
}
