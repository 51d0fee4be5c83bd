/**
 * Signing certificates (node-forge): reading an uploaded PKCS#12 (it must open with the
 * passphrase and hold a private key with its certificate, in date), and making a self-signed
 * one for an organization that uploaded none. A self-signed certificate proves the document
 * was not changed after signing (integrity), not who the organization is (identity): readers
 * show its issuer as unknown. Keys are made by Node's crypto (native, fast), then packed by forge.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';
import { invalid } from '../../../kernel/errors';

export interface CertificateDetails {
  subject: string;
  fingerprintSha256: string;
  notAfter: Date;
}

const YEAR = 365 * 24 * 3600_000;

function details(certificate: forge.pki.Certificate): CertificateDetails {
  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes();
  return {
    subject: certificate.subject.attributes.map((a) => `${a.shortName ?? a.name}=${String(a.value)}`).join(', '),
    fingerprintSha256: createHash('sha256').update(Buffer.from(der, 'binary')).digest('hex'),
    notAfter: certificate.validity.notAfter,
  };
}

/** What signs: the PKCS#12's private key, its certificate, and every certificate the file holds (the chain). */
export interface OpenedP12 {
  key: forge.pki.rsa.PrivateKey;
  certificate: forge.pki.Certificate;
  chain: forge.pki.Certificate[];
}

/** Opens a PKCS#12 with its passphrase, or a 400 saying why it cannot sign. */
export function openP12(p12: Buffer, passphrase: string): OpenedP12 {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary'))), false, passphrase);
  } catch {
    throw invalid('certificate_invalid', 'The file is not a PKCS#12 (.p12/.pfx) this passphrase opens', 'p12');
  }
  // The first encrypted (PKCS#8 shrouded) key is the one that signs.
  const keys = parsed.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag] ?? [];
  const certificates = parsed.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag] ?? [];
  const key = keys[0]?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!key?.n) throw invalid('certificate_invalid', 'The PKCS#12 holds no encrypted RSA private key (the key that signs)', 'p12');
  const chain = certificates.map((bag) => bag.cert).filter((cert): cert is forge.pki.Certificate => Boolean(cert));
  const certificate = chain.find((cert) => {
    const publicKey = cert.publicKey as forge.pki.rsa.PublicKey | undefined;
    return Boolean(publicKey?.n && publicKey.n.compareTo(key.n) === 0 && publicKey.e.compareTo(key.e) === 0);
  });
  if (!certificate) throw invalid('certificate_invalid', 'The PKCS#12 holds no certificate for its private key', 'p12');
  return { key, certificate, chain };
}

/** The certificate of an uploaded PKCS#12, or a 400 saying why it cannot sign. */
export function inspectP12(p12: Buffer, passphrase: string, now: Date): CertificateDetails {
  const { certificate } = openP12(p12, passphrase);
  if (certificate.validity.notAfter <= now || certificate.validity.notBefore > now)
    throw invalid('certificate_expired', 'The certificate is not valid now (see its validity dates)', 'p12');
  return details(certificate);
}

/** A new self-signed RSA-2048 certificate for the organization, valid three years, as a PKCS#12 with a random passphrase. */
export function selfSignedP12(organizationName: string, now: Date): { p12: Buffer; passphrase: string } & CertificateDetails {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString());
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  certificate.serialNumber = `01${randomBytes(15).toString('hex')}`;
  certificate.validity.notBefore = new Date(now.getTime() - 60_000);
  certificate.validity.notAfter = new Date(now.getTime() + 3 * YEAR);
  const subject = [
    { name: 'commonName', value: `${organizationName.slice(0, 50)} e-signature (self-signed)` },
    { name: 'organizationName', value: organizationName.slice(0, 64) },
  ];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
  ]);
  certificate.sign(key, forge.md.sha256.create());
  const passphrase = randomBytes(24).toString('base64url');
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [certificate], passphrase, { algorithm: 'aes256' });
  return { p12: Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary'), passphrase, ...details(certificate) };
}
