/**
 * A credential's revocation and suspension: every Bitstring Status List entry is read from the
 * issuer's own list, which must itself be a credential of the **same issuer** whose proof
 * checks out (a VC-JWT, or a Data Integrity-secured document; an unsecured list is not
 * trusted). A set bit revokes or suspends; a list that cannot be had or read is
 * `status_unavailable`, never a pass.
 */
import { claimsOf, Rejected, type Claims, type Json } from './credential-claims';
import type { DataIntegrityVerifier } from './data-integrity-proof';
import type { DocumentFetcher } from './document-fetcher';
import { decodeBitstring, isBitSet, statusEntries } from './status-list';

export type JwtVerifier = (jwt: string, issuer: string) => Promise<Json>;

export class StatusCheck {
  constructor(
    private readonly fetcher: DocumentFetcher,
    private readonly verifyJwt: JwtVerifier,
    private readonly dataIntegrity: DataIntegrityVerifier,
  ) {}

  /** The list credential's claims, once its proof checked out against the credential's issuer. */
  private async verifiedList(body: string, issuer: string): Promise<Claims> {
    if (!body.startsWith('{')) return claimsOf(await this.verifyJwt(body, issuer));
    const document = JSON.parse(body) as unknown;
    if (!document || typeof document !== 'object' || Array.isArray(document) || !('proof' in document))
      throw new Error('an unsecured status list is not trusted');
    const claims = claimsOf(document as Json);
    if (claims.issuer !== issuer) throw new Error('the list is not the issuer’s');
    return claimsOf(await this.dataIntegrity.verify(document as Json, issuer));
  }

  async check(claims: Claims): Promise<void> {
    let entries;
    try {
      entries = statusEntries(claims.credentialStatus);
    } catch {
      throw new Rejected('credential_malformed');
    }
    for (const entry of entries) {
      let bits: Buffer;
      try {
        const list = await this.verifiedList((await this.fetcher.text(entry.listUrl)).trim(), claims.issuer);
        if (list.issuer !== claims.issuer) throw new Error('the list is not the issuer’s');
        const subject = list.subject;
        if (subject.statusPurpose !== entry.purpose || typeof subject.encodedList !== 'string') throw new Error('not the list for this purpose');
        bits = decodeBitstring(subject.encodedList);
      } catch (error) {
        throw new Rejected(error instanceof Rejected && error.reason === 'issuer_unresolvable' ? 'issuer_unresolvable' : 'status_unavailable');
      }
      let set: boolean;
      try {
        set = isBitSet(bits, entry.index);
      } catch {
        throw new Rejected('status_unavailable');
      }
      if (set) throw new Rejected(entry.purpose === 'revocation' ? 'credential_revoked' : 'credential_suspended');
    }
  }
}
