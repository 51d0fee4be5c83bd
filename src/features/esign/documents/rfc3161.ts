/**
 * RFC 3161 time-stamp protocol, the two messages a PAdES-B-T signature needs: the request
 * (TimeStampReq: SHA-256 imprint, a nonce, certReq so the token carries the TSA's certificate)
 * and the checks on the answer before its token goes into the signature: granted, a SignedData
 * whose TSTInfo names our imprint and our nonce (a token for anything else, or a replayed one,
 * is refused). The token's own signature and the TSA's certificate are for the validator
 * (pdfsig, Acrobat, the EU DSS), which trusts TSAs or not. node-forge's ASN.1, as cades-signer.ts.
 */
import { randomBytes } from 'node:crypto';
import forge from 'node-forge';

const { asn1 } = forge;
type Asn1 = forge.asn1.Asn1;

export const TST_INFO_OID = '1.2.840.113549.1.9.16.1.4';
const SIGNED_DATA_OID = '1.2.840.113549.1.7.2';
const SHA256_OID = '2.16.840.1.101.3.4.2.1';

/** Why a time-stamp could not be had; `code` is stable (the API and the signer's page show it). */
export class TimestampError extends Error {
  constructor(
    readonly code: 'timestamp_unavailable' | 'timestamp_refused' | 'timestamp_invalid',
    message: string,
  ) {
    super(message);
    this.name = 'TimestampError';
  }
}

export interface TimestampRequest {
  der: Buffer;
  nonce: Buffer;
}

/** A TimeStampReq for a SHA-256 digest, with a fresh 64-bit nonce. */
export function timestampRequest(sha256: Buffer): TimestampRequest {
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0]! & 0x7f) | 0x40; // positive and minimally encoded as a DER INTEGER
  const der = Buffer.from(
    asn1
      .toDer(
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(1).getBytes()),
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
            asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
              asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(SHA256_OID).getBytes()),
            ]),
            asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, sha256.toString('binary')),
          ]),
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, nonce.toString('binary')),
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BOOLEAN, false, String.fromCharCode(0xff)),
        ]),
      )
      .getBytes(),
    'binary',
  );
  return { der, nonce };
}

/** A DER TLV at `offset`: where its contents start and how long they are (definite lengths only, as DER has). */
function tlv(buffer: Buffer, offset: number): { start: number; length: number } {
  const first = buffer[offset + 1];
  if (first === undefined) throw new RangeError('truncated');
  if (first < 0x80) return { start: offset + 2, length: first };
  const count = first & 0x7f;
  if (count === 0 || count > 4 || offset + 2 + count > buffer.length) throw new RangeError('not a definite DER length');
  return { start: offset + 2 + count, length: buffer.readUIntBE(offset + 2, count) };
}

const children = (node: Asn1 | undefined): Asn1[] => (node && Array.isArray(node.value) ? node.value : []);
const bytes = (node: Asn1 | undefined): string => (node && typeof node.value === 'string' ? node.value : '');
const isUniversal = (node: Asn1 | undefined, type: number) => node?.tagClass === asn1.Class.UNIVERSAL && node.type === type;

/** The TimeStampToken (DER, a CMS ContentInfo) of a TimeStampResp, once it is checked to answer `request`. */
export function timestampToken(response: Buffer, sha256: Buffer, request: TimestampRequest): { token: Buffer; time: Date } {
  const invalid = (why: string) => new TimestampError('timestamp_invalid', `The time-stamp authority's answer is not a usable RFC 3161 response: ${why}`);
  let parsed: Asn1;
  try {
    parsed = asn1.fromDer(forge.util.createBuffer(response.toString('binary')), true);
  } catch {
    throw invalid('not DER');
  }
  const [statusInfo, tokenNode] = children(parsed);
  const status = children(statusInfo)[0];
  if (!isUniversal(status, asn1.Type.INTEGER)) throw invalid('no status');
  const statusValue = bytes(status).length === 1 ? bytes(status).charCodeAt(0) : -1;
  // 0 granted, 1 grantedWithMods; anything else is a refusal (rejection, waiting, revocation…).
  if (statusValue !== 0 && statusValue !== 1)
    throw new TimestampError('timestamp_refused', `The time-stamp authority refused the request (PKIStatus ${statusValue})`);
  if (!tokenNode) throw invalid('granted without a token');
  const [contentType, explicitContent] = children(tokenNode);
  if (!isUniversal(contentType, asn1.Type.OID) || asn1.derToOid(bytes(contentType)) !== SIGNED_DATA_OID) throw invalid('the token is not SignedData');
  const signedData = children(explicitContent)[0];
  const encapsulated = children(signedData).find((n, i) => i > 0 && isUniversal(n, asn1.Type.SEQUENCE) && isUniversal(children(n)[0], asn1.Type.OID));
  const [eContentType, eContent] = children(encapsulated);
  if (!eContentType || asn1.derToOid(bytes(eContentType)) !== TST_INFO_OID) throw invalid('the token holds no TSTInfo');
  const octets = children(eContent)[0];
  let tstInfo: Asn1;
  try {
    // An OCTET STRING, possibly constructed (BER from some TSAs): its pieces joined.
    const raw = isUniversal(octets, asn1.Type.OCTETSTRING) && !octets!.constructed ? bytes(octets) : children(octets).map(bytes).join('');
    tstInfo = asn1.fromDer(forge.util.createBuffer(raw), true);
  } catch {
    throw invalid('TSTInfo is not DER');
  }
  const fields = children(tstInfo);
  const imprint = children(fields[2]);
  if (asn1.derToOid(bytes(children(imprint[0])[0])) !== SHA256_OID || bytes(imprint[1]) !== sha256.toString('binary'))
    throw invalid('the token is for another digest');
  const genTime = fields[4];
  if (!isUniversal(genTime, asn1.Type.GENERALIZEDTIME)) throw invalid('no genTime');
  const nonce = fields.slice(5).find((n) => isUniversal(n, asn1.Type.INTEGER));
  if (bytes(nonce) !== request.nonce.toString('binary')) throw invalid('the nonce is not ours');
  // The token as the TSA wrote it (its signature covers its own bytes): what follows the status in the response.
  let token: Buffer;
  try {
    const outer = tlv(response, 0);
    const statusEnd = (({ start, length }) => start + length)(tlv(response, outer.start));
    token = response.subarray(statusEnd, outer.start + outer.length);
  } catch {
    throw invalid('not DER');
  }
  return { token, time: asn1.generalizedTimeToDate(bytes(genTime)) };
}
