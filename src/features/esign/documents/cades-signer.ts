/**
 * The CMS of a PAdES baseline signature (PAdES-B-B, ETSI EN 319 142-1; CAdES attributes of
 * EN 319 122-1): SignedData over the PDF's byte range, detached, SHA-256 and RSA, with exactly
 * the signed attributes the baseline asks for: content-type (id-data), message-digest, and the
 * ESS signing-certificate-v2 (RFC 5035) naming the signer's certificate by its SHA-256 hash and
 * issuer/serial, so the signature cannot be passed off as made under another certificate for
 * the same key. No signing-time attribute: PAdES puts the claimed time in the signature
 * dictionary's /M (pdf-signature.ts).
 *
 * Built with node-forge's ASN.1 (already used for the PKCS#12) and Node's crypto for the RSA
 * signature: @signpdf's P12Signer (node-forge's pkcs7) always adds signing-time and cannot
 * encode any other attribute.
 */
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { Signer } from '@signpdf/utils';
import forge from 'node-forge';
import { openP12 } from './certificates';

const { asn1 } = forge;
type Asn1 = forge.asn1.Asn1;

const OIDS = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
};

const universal = (type: number, constructed: boolean, value: string | Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, type, constructed, value);
const sequence = (...items: Asn1[]) => universal(asn1.Type.SEQUENCE, true, items);
const oid = (id: string) => universal(asn1.Type.OID, false, asn1.oidToDer(id).getBytes());
const octets = (bytes: Buffer) => universal(asn1.Type.OCTETSTRING, false, bytes.toString('binary'));
const integer = (n: number) => universal(asn1.Type.INTEGER, false, asn1.integerToDer(n).getBytes());
const der = (node: Asn1) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');
/** A DER SET OF: its elements sorted by their encodings (X.690 §11.6), as the signature covers the bytes. */
const setOf = (items: Asn1[]) =>
  universal(
    asn1.Type.SET,
    true,
    items
      .map((item) => ({ item, bytes: der(item) }))
      .sort((a, b) => Buffer.compare(a.bytes, b.bytes))
      .map(({ item }) => item),
  );
/** A DER TLV of `parts` (tag byte, definite length). */
function tlv(tag: number, ...parts: Buffer[]): Buffer {
  const content = Buffer.concat(parts);
  const n = content.length;
  const length =
    n < 0x80
      ? Buffer.from([n])
      : n < 0x100
        ? Buffer.from([0x81, n])
        : n < 0x10000
          ? Buffer.from([0x82, n >> 8, n & 0xff])
          : Buffer.from([0x83, n >> 16, (n >> 8) & 0xff, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}
const attribute = (type: string, value: Asn1) => sequence(oid(type), setOf([value]));
/** SHA-256 with its parameters absent (RFC 5754 §2). */
const sha256Algorithm = () => sequence(oid(OIDS.sha256));
const contextTag = (tag: number, constructed: boolean, value: Asn1[]) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, tag, constructed, value);

/** The certificate's issuer Name and serialNumber as they are encoded in it (not re-encoded from parsed fields). */
function issuerAndSerial(certificate: forge.pki.Certificate): { issuer: Asn1; serial: Asn1 } {
  const tbs = forge.pki.certificateToAsn1(certificate).value[0] as Asn1;
  const fields = tbs.value as Asn1[];
  const first = fields[0]!.tagClass === asn1.Class.CONTEXT_SPECIFIC ? 1 : 0; // [0] version, present from v2 on
  return { serial: fields[first]!, issuer: fields[first + 2]! };
}

/** ESS signing-certificate-v2: SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }; hashAlgorithm left out as SHA-256 is its DEFAULT (DER). */
function signingCertificateV2(certificateDer: Buffer, certificate: forge.pki.Certificate): Asn1 {
  const { issuer, serial } = issuerAndSerial(certificate);
  const issuerSerial = sequence(sequence(contextTag(4, true, [issuer])), serial);
  const essCertIdV2 = sequence(octets(createHash('sha256').update(certificateDer).digest()), issuerSerial);
  return sequence(sequence(essCertIdV2));
}

/**
 * Signs with the organization's PKCS#12 (the key, its certificate, and the chain it holds, all
 * embedded). With `timestamp` (PAdES-B-T) the signature value is time-stamped and the token
 * added as the unsigned signature-time-stamp attribute (id-aa-signatureTimeStampToken).
 */
export class CadesSigner extends Signer {
  constructor(
    private readonly p12: Buffer,
    private readonly passphrase: string,
    /** An RFC 3161 token (DER) over the SHA-256 of the signature value. */
    private readonly timestamp?: (signatureSha256: Buffer) => Promise<Buffer>,
  ) {
    super();
  }

  /** The CMS ContentInfo (DER) over `content`, the PDF without its /Contents. The time is the PDF's /M, not an attribute. */
  override async sign(content: Buffer): Promise<Buffer> {
    const { key, certificate, chain } = openP12(this.p12, this.passphrase);
    const certificates = chain.map((cert) => forge.pki.certificateToAsn1(cert));
    const certificateDer = der(forge.pki.certificateToAsn1(certificate));
    const signedAttributes = [
      attribute(OIDS.contentType, oid(OIDS.data)),
      attribute(OIDS.messageDigest, octets(createHash('sha256').update(content).digest())),
      attribute(OIDS.signingCertificateV2, signingCertificateV2(certificateDer, certificate)),
    ];
    // The signature covers the attributes encoded as a SET (RFC 5652 §5.4); in SignerInfo they are [0] IMPLICIT.
    const signedSet = setOf(signedAttributes);
    const privateKey = createPrivateKey(forge.pki.privateKeyToPem(key));
    const signature = sign('sha256', der(signedSet), privateKey);
    const { issuer, serial } = issuerAndSerial(certificate);
    const signerInfoFields = [
      integer(1),
      sequence(issuer, serial),
      sha256Algorithm(),
      contextTag(0, true, signedSet.value as Asn1[]),
      sequence(oid(OIDS.sha256WithRSAEncryption), universal(asn1.Type.NULL, false, '')),
      octets(signature),
    ].map(der) as Buffer[];
    // PAdES-B-T: the token goes in as the TSA wrote it (its signature covers its bytes), hence raw TLVs from here on.
    if (this.timestamp) {
      const token = await this.timestamp(createHash('sha256').update(signature).digest());
      signerInfoFields.push(tlv(0xa1, tlv(0x30, der(oid(OIDS.signatureTimeStampToken)), tlv(0x31, token))));
    }
    const signedData = tlv(
      0x30,
      der(integer(1)),
      der(setOf([sha256Algorithm()])),
      der(sequence(oid(OIDS.data))),
      der(contextTag(0, true, certificates)),
      tlv(0x31, tlv(0x30, ...signerInfoFields)),
    );
    return tlv(0x30, der(oid(OIDS.signedData)), tlv(0xa0, signedData));
  }
}
