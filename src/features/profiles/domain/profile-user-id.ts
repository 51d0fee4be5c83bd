/**
 * `profile_user_id` is OUR identifier of a candidate at the profile provider: `usr_`
 * followed by an opaque, URL-safe id, stable for one candidate of one provider. Real
 * providers name their users as they please (an OpenID Connect `sub` such as
 * `248289761001`, a UUID, an email-like string), so it is derived from the provider's
 * identity and the subject: the same candidate always gets the same id, two providers
 * never share one, and nothing of the subject can be read from it. A subject that already
 * has our shape (the sandbox's, or a provider built for this plugin) is kept as is, so
 * ids stored before stay valid.
 */
import { createHash } from 'node:crypto';

export const PROFILE_USER_ID = /^usr_[0-9A-Za-z_-]{1,64}$/;

/** @param provider the provider's identity: its issuer, or its authorize endpoint's origin. */
export function profileUserIdFor(provider: string, subject: string): string {
  if (PROFILE_USER_ID.test(subject)) return subject;
  // 32 base64url characters: 192 bits of SHA-256, no collision between candidates in practice.
  return `usr_${createHash('sha256').update(provider).update('\n').update(subject).digest('base64url').slice(0, 32)}`;
}
