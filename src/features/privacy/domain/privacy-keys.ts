/**
 * The two keyed functions of the privacy feature: short-lived signed export links (so a
 * browser or a mail client can fetch an export without the organization's API key), and
 * the digest an erasure keeps of the candidate id (it proves which candidate was erased
 * to someone who already knows the id, and reveals it to nobody else).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export class PrivacyKeys {
  constructor(
    private readonly linkKey: Buffer,
    private readonly digestKey: Buffer,
  ) {}

  subjectDigest(organizationId: string, profileUserId: string): string {
    return createHmac('sha256', this.digestKey).update(`${organizationId}\n${profileUserId}`).digest('base64url');
  }

  signExportLink(exportId: string, expiresAtSeconds: number): string {
    return createHmac('sha256', this.linkKey).update(`${exportId}.${expiresAtSeconds}`).digest('base64url');
  }

  /** True when the signature is ours for this export and expiry, and the expiry has not passed. */
  verifyExportLink(exportId: string, expiresAtSeconds: number, signature: string, now: Date): boolean {
    if (!Number.isSafeInteger(expiresAtSeconds) || expiresAtSeconds * 1000 <= now.getTime()) return false;
    const expected = Buffer.from(this.signExportLink(exportId, expiresAtSeconds));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
