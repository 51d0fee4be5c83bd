/** The esign feature's ports: the PDF maker (documents/) and the organizations' signing certificates (storage/). */
import type { EnvelopeEvent, EnvelopeSignature } from './envelope';
import type { ReminderSettings } from './reminder-schedule';

export interface DocumentContent {
  title: string;
  /** The filled template (headings and paragraphs, see template-language.ts). */
  text: string;
  organizationName: string;
  /** Printed in the footer of every page. */
  envelopeId: string;
}

/** What the audit-trail page of a signed document says. */
export interface AuditTrail {
  envelopeId: string;
  organizationName: string;
  signer: { name: string; email: string };
  originalSha256: string;
  events: readonly EnvelopeEvent[];
  signedAt: Date;
}

export interface SigningCredential {
  /** PKCS#12 with the private key and its certificate. */
  p12: Buffer;
  passphrase: string;
}

export interface EnvelopeDocuments {
  /** The document as sent: the PDF whose SHA-256 the audit trail names. */
  render(content: DocumentContent): Promise<Buffer>;
  /**
   * The final document: the same pages, the signature placed below the text, the audit-trail
   * page, and a PDF digital signature (PAdES baseline) over the whole file with the organization's key:
   * level B-B, or B-T with a time-stamp from `timestampAuthorityUrl` (its failure is an `upstream` DomainError).
   */
  seal(
    content: DocumentContent,
    signature: EnvelopeSignature,
    trail: AuditTrail,
    credential: SigningCredential,
    timestampAuthorityUrl?: string | null,
  ): Promise<Buffer>;
}

/** An RFC 3161 time-stamp authority (the organization's TSA URL), for PAdES-B-T. */
export interface TimestampAuthority {
  /**
   * A time-stamp token (DER) over a SHA-256 digest, checked to answer this request; a TSA that
   * is unreachable, refuses or answers something else is an `upstream` DomainError
   * (timestamp_unavailable, timestamp_refused, timestamp_invalid).
   */
  timestamp(url: string, sha256: Buffer): Promise<{ token: Buffer; time: Date }>;
}

export const TIMESTAMP_AUTHORITY = Symbol('TimestampAuthority');

/** The organization's e-signature settings. */
export interface EsignSettings {
  /** RFC 3161 time-stamp authority: set, signatures are PAdES-B-T; null, B-B. */
  timestampAuthorityUrl: string | null;
  /** Reminders to sign (the defaults when the organization set none). */
  reminders: ReminderSettings;
  updatedAt: Date | null;
}

export interface EsignSettingsRepository {
  get(organizationId: string): Promise<EsignSettings>;
  save(organizationId: string, settings: Omit<EsignSettings, 'updatedAt'>, now: Date): Promise<EsignSettings>;
}

export const ESIGN_SETTINGS_REPOSITORY = Symbol('EsignSettingsRepository');

export const ENVELOPE_DOCUMENTS = Symbol('EnvelopeDocuments');

export interface CertificateInfo {
  source: 'uploaded' | 'generated';
  subject: string;
  fingerprintSha256: string;
  notAfter: Date;
  createdAt: Date;
}

export interface SigningCertificates {
  /** The organization's credential; a self-signed one is made (and kept) the first time there is none. */
  credential(organizationId: string, organizationName: string): Promise<SigningCredential>;
  info(organizationId: string): Promise<CertificateInfo | undefined>;
  /** Replaces the organization's credential with an uploaded PKCS#12 (400 when it cannot be used). */
  upload(organizationId: string, p12: Buffer, passphrase: string): Promise<CertificateInfo>;
  /** Goes back to a generated certificate on the next signature. */
  remove(organizationId: string): Promise<boolean>;
}

export const SIGNING_CERTIFICATES = Symbol('SigningCertificates');
