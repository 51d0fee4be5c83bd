/**
 * An envelope: one document sent to one signer for a simple electronic signature (ESIGN Act,
 * eIDAS art. 25(1)). It is `sent` until the signer signs or declines through the signed link,
 * the organization voids it, or it expires; each of those is final. Its events (with the
 * signer's IP and user agent) become the audit-trail page of the signed PDF.
 */
import type { ReminderKind, ReminderSettings } from './reminder-schedule';

export const SEND_OFFER_ACTION = 'esign.send_offer';
export const SEND_AGREEMENT_ACTION = 'esign.send_agreement';

export const ENVELOPE_KINDS = ['offer', 'agreement'] as const;
export type EnvelopeKind = (typeof ENVELOPE_KINDS)[number];

/** The license each kind of envelope is sent under. */
export const ACTION_OF: Record<EnvelopeKind, string> = { offer: SEND_OFFER_ACTION, agreement: SEND_AGREEMENT_ACTION };

export type EnvelopeStatus = 'sent' | 'signed' | 'declined' | 'voided' | 'expired';

export type EnvelopeEventType = 'created' | 'sent' | 'viewed' | 'reminded' | 'consented' | 'signed' | 'declined' | 'voided' | 'expired' | 'sealed';

export interface EnvelopeEvent {
  type: EnvelopeEventType;
  at: string;
  ip?: string;
  userAgent?: string;
  detail?: string;
}

export interface Signer {
  name: string;
  email: string;
  phone: string | null;
}

export interface EnvelopeSignature {
  method: 'typed' | 'drawn';
  /** The name as the signer typed it (typed), or their name beside a drawn mark. */
  typedName: string;
  /** The drawn mark (PNG), bounded; absent for a typed signature. */
  image: Buffer | null;
}

/** A reminder to sign (or the notice before expiry) that went to the signer. */
export interface EnvelopeReminder {
  kind: ReminderKind;
  number: number;
  /** The slot it answered (its claim). */
  dueAt: string;
  sentAt: string;
  /** The action runs: the email (null when it could not be sent: `error` says why) and the SMS. */
  emailRunId: string | null;
  smsRunId: string | null;
  error?: string;
}

export interface Envelope {
  id: string;
  organizationId: string;
  kind: EnvelopeKind;
  /** The host's id of what is signed (an offer id, an application id). */
  referenceId: string;
  /** A hook's idempotency key: the same offer fired twice is one envelope. */
  sourceKey: string | null;
  templateId: string | null;
  title: string;
  /** The filled template: the text the signer reads and the signed PDF prints again. */
  documentText: string;
  /** Hex SHA-256 of the original PDF (the one sent, before any signature). */
  documentSha256: string;
  signer: Signer;
  language: string;
  status: EnvelopeStatus;
  signature: EnvelopeSignature | null;
  declineReason: string | null;
  signedDocumentSha256: string | null;
  events: EnvelopeEvent[];
  emailRunId: string | null;
  smsRunId: string | null;
  /** The due time of the last reminder slot claimed (null: none yet). */
  reminderDueAt: Date | null;
  reminders: EnvelopeReminder[];
  expiresAt: Date;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface EnvelopeChanges {
  status?: EnvelopeStatus;
  signature?: EnvelopeSignature;
  declineReason?: string;
  signedDocument?: Buffer;
  signedDocumentSha256?: string;
  events?: EnvelopeEvent[];
  /** Events added to the stored ones in the UPDATE itself (nothing a concurrent append wrote is lost). */
  appendEvents?: EnvelopeEvent[];
  emailRunId?: string | null;
  smsRunId?: string | null;
  completedAt?: Date;
}

export interface EnvelopeRepository {
  /** Inserts it; returns its id, or the id of the envelope already made for the same `sourceKey`. */
  create(envelope: Envelope, document: Buffer): Promise<string>;
  get(organizationId: string, id: string): Promise<Envelope | undefined>;
  findBySource(organizationId: string, sourceKey: string): Promise<Envelope | undefined>;
  /** Newest first; narrowed to one host id (an offer's envelopes) or one status. */
  list(organizationId: string, filter: { referenceId?: string; status?: EnvelopeStatus; limit: number }): Promise<Envelope[]>;
  /** The original PDF, or the signed one. */
  document(organizationId: string, id: string, which: 'original' | 'signed'): Promise<Buffer | undefined>;
  /** Applies the changes when the envelope is (still) in `whenStatus`; false when another request got there first. */
  update(organizationId: string, id: string, changes: EnvelopeChanges, now: Date, whenStatus?: EnvelopeStatus): Promise<boolean>;
  /** Removes an envelope no message went out for (its create failed). */
  remove(organizationId: string, id: string): Promise<void>;
  /** Marks every `sent` envelope whose expiry is at or before `now` expired; returns them. */
  expireDue(now: Date, event: EnvelopeEvent): Promise<Envelope[]>;
  /**
   * A page (by id, after `afterId`) of `sent` envelopes not expired at `now` whose organization has
   * reminders on and that may owe one (no slot claimed for the last `every_days`, or the
   * expiry notice), each with its organization's schedule.
   */
  remindable(now: Date, limit: number, afterId?: string): Promise<{ envelope: Envelope; settings: ReminderSettings }[]>;
  /**
   * Claims the slot due at `dueAt`: one UPDATE, only while the envelope is `sent`, not expired and
   * its last claim is older; false when another sweep (or a signature) got there first.
   */
  claimReminder(organizationId: string, id: string, dueAt: Date, now: Date): Promise<boolean>;
  /** Gives a claim back (the mail server did not answer): the next sweep tries the slot again. */
  releaseReminder(organizationId: string, id: string, dueAt: Date, previous: Date | null): Promise<void>;
  /** Appends the reminder and its audit event. */
  recordReminder(organizationId: string, id: string, reminder: EnvelopeReminder, event: EnvelopeEvent, now: Date): Promise<void>;
}

export const ENVELOPE_REPOSITORY = Symbol('EnvelopeRepository');
