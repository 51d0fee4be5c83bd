/**
 * Signing built into the plugin (esign.send_offer, esign.send_agreement): an envelope is made
 * from the organization's template and the host's data as a PDF, the signer gets a signed link
 * by email (and SMS when one resolves; each send an action run), reads the document, consents
 * to sign electronically and signs (typed name, optionally a drawn mark) or declines. Signing
 * seals the PDF: the signature on the document, an audit-trail page and a PDF digital
 * signature with the organization's certificate; the signer gets it by email, the
 * organization through the API, and `offer.signed` / `agreement.signed` is published. Until
 * then the reminder sweep sends the link again on the organization's schedule (remindDue).
 */
import { createHash } from 'node:crypto';
import { conflict, DomainError, isDomainError, notFound } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import { newId } from '../../../kernel/ids';
import type { Logger } from '../../../kernel/logger';
import type { NotificationConnector, SmsConnector } from '../../hooks/domain/connectors';
import { formatMoment, messageLanguage } from '../../messages/domain/message-language';
import {
  ACTION_OF,
  type Envelope,
  type EnvelopeEvent,
  type EnvelopeKind,
  type EnvelopeReminder,
  type EnvelopeRepository,
  type EnvelopeSignature,
  type EnvelopeStatus,
} from './envelope';
import type { EnvelopeDocuments, SigningCertificates } from './ports';
import { signatureImage } from './signature-image';
import { signSigningLink, verifySigningLink } from './signing-links';
import { dueReminder, nextReminderAt, type ReminderSettings, type ReminderSlot } from './reminder-schedule';
import { fill, SIGNING_STRINGS } from './signing-strings';
import { fillTemplate } from './template-language';
import type { DocumentTemplates } from './templates';

const DAY = 24 * 3600_000;
/** The link outlives the envelope's expiry by a week: the signer can still see what became of it. */
const LINK_AFTER_EXPIRY_MS = 7 * DAY;
export const DEFAULT_EXPIRY_DAYS = 14;

export interface NewEnvelope {
  kind: EnvelopeKind;
  referenceId: string;
  templateId?: string;
  title?: string;
  signer: { name: string; email: string; phone?: string; language?: string };
  /** Placeholder values beyond those the plugin knows (`offer.salary`, `fields.bonus`, …). */
  values?: Record<string, string>;
  expiresInDays?: number;
  /** A hook's idempotency key: a second create with it answers the first envelope. */
  sourceKey?: string;
}

export interface EsignPorts {
  email: NotificationConnector;
  sms: SmsConnector;
  smsAvailable(organizationId: string): Promise<boolean>;
  licensed(organizationId: string, action: string): Promise<boolean>;
  organizationName(organizationId: string): Promise<string>;
  /** The organization's RFC 3161 time-stamp authority (PAdES-B-T), or null (PAdES-B-B). */
  timestampAuthorityUrl(organizationId: string): Promise<string | null>;
  /** The organization's reminder schedule. */
  reminderSettings(organizationId: string): Promise<ReminderSettings>;
}

/** An envelope as the organization sees it: with the signer's link and when the next reminder goes. */
export type EnvelopeView = Envelope & { url: string; nextReminderAt: Date | null };

/** What one reminder sweep did. */
export interface ReminderReport {
  reminded: number;
  expiry_notices: number;
  /** Slots whose email could not be sent (a failed run; the slot is not tried again). */
  failed: number;
  /** Slots given back because the mail server did not answer: the next sweep tries them again. */
  retry_later: number;
}

const REMINDER_PAGE = 200;

/** Who is at the other end of the signer's request (the audit trail's IP and user agent). */
export interface SignerContext {
  ip: string;
  userAgent: string;
}

export interface SigningInput {
  consent: boolean;
  typedName: string;
  /** A PNG data URL from the page's canvas, or nothing. */
  drawn?: string;
}

export interface SigningView {
  envelope: Envelope;
  organizationName: string;
  token: string;
  /** Past its expiry, whether or not the sweep has marked it yet: nothing to sign. */
  expired: boolean;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

export class Envelopes {
  constructor(
    private readonly envelopes: EnvelopeRepository,
    private readonly templates: DocumentTemplates,
    private readonly documents: EnvelopeDocuments,
    private readonly certificates: SigningCertificates,
    private readonly ports: EsignPorts,
    private readonly events: EventPublisher,
    private readonly linkKey: Buffer,
    private readonly options: { baseUrl: string },
    private readonly now: () => Date,
    private readonly logger: Logger,
  ) {}

  async create(organizationId: string, input: NewEnvelope): Promise<EnvelopeView> {
    const action = ACTION_OF[input.kind];
    if (!(await this.ports.licensed(organizationId, action)))
      throw new DomainError(
        'forbidden',
        'license_required',
        `The ${action} license is not active for this organization (POST /v1/integrations/licenses/${action}/activate)`,
        { action_key: action },
      );
    if (input.sourceKey) {
      const existing = await this.envelopes.findBySource(organizationId, input.sourceKey);
      if (existing) return this.withLink(existing);
    }
    const now = this.now();
    const organizationName = await this.ports.organizationName(organizationId);
    const template = await this.templates.forEnvelope(organizationId, input.kind, input.templateId);
    const language = messageLanguage(input.signer.language);
    const title = input.title ?? (input.kind === 'offer' ? 'Offer letter' : 'Agreement');
    const values: Record<string, string> = {
      ...(input.values ?? {}),
      'candidate.name': input.signer.name,
      'candidate.email': input.signer.email,
      'organization.name': organizationName,
      'document.title': title,
      today: now.toISOString().slice(0, 10),
    };
    const id = newId('env');
    const filledTitle = clip(fillTemplate(template.title, values, 'values').trim() || title, 200);
    const text = fillTemplate(template.body, values, 'values');
    const document = await this.documents.render({ title: filledTitle, text, organizationName, envelopeId: id });
    const expiresInDays = input.expiresInDays ?? DEFAULT_EXPIRY_DAYS;
    const envelope: Envelope = {
      id,
      organizationId,
      kind: input.kind,
      referenceId: input.referenceId,
      sourceKey: input.sourceKey ?? null,
      templateId: template.id,
      title: filledTitle,
      documentText: text,
      documentSha256: sha256(document),
      signer: { name: input.signer.name, email: input.signer.email.toLowerCase(), phone: input.signer.phone ?? null },
      language: language.tag,
      status: 'sent',
      signature: null,
      declineReason: null,
      signedDocumentSha256: null,
      events: [{ type: 'created', at: now.toISOString() }],
      emailRunId: null,
      smsRunId: null,
      reminderDueAt: null,
      reminders: [],
      expiresAt: new Date(now.getTime() + expiresInDays * DAY),
      completedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const created = await this.envelopes.create(envelope, document);
    // Two creates with one source key racing: the unique index lets one through; the other answers it.
    if (created !== envelope.id) {
      const winner = (await this.envelopes.get(organizationId, created))!;
      return this.withLink(winner);
    }
    const url = this.url(envelope);
    const runs = await this.sendLink(envelope, organizationName, url);
    const events: EnvelopeEvent[] = [...envelope.events, { type: 'sent', at: this.now().toISOString(), detail: runs.smsRunId ? 'email, sms' : 'email' }];
    await this.envelopes.update(organizationId, envelope.id, { ...runs, events }, this.now());
    const sent = { ...envelope, ...runs, events };
    await this.publish(`${envelope.kind}.sent_for_signature`, sent, this.payload(sent));
    return { ...sent, url, nextReminderAt: await this.nextReminder(sent) };
  }

  async get(organizationId: string, id: string): Promise<EnvelopeView> {
    const envelope = await this.envelopes.get(organizationId, id);
    if (!envelope) throw notFound('envelope', id);
    return this.withLink(envelope);
  }

  async list(organizationId: string, filter: { referenceId?: string; status?: EnvelopeStatus; limit: number }): Promise<EnvelopeView[]> {
    const envelopes = await this.envelopes.list(organizationId, filter);
    const settings = envelopes.some((e) => e.status === 'sent') ? await this.ports.reminderSettings(organizationId) : undefined;
    return Promise.all(envelopes.map((e) => this.withLink(e, settings)));
  }

  /** The original PDF, or (once signed) the sealed one. */
  async document(organizationId: string, id: string, which: 'original' | 'signed'): Promise<{ envelope: Envelope; pdf: Buffer }> {
    const envelope = await this.get(organizationId, id);
    const pdf = await this.envelopes.document(organizationId, id, which);
    if (!pdf) throw conflict('envelope_not_signed', `Envelope ${id} is ${envelope.status}: it has no signed document`);
    return { envelope, pdf };
  }

  async void(organizationId: string, id: string): Promise<EnvelopeView> {
    const envelope = await this.get(organizationId, id);
    if (envelope.status !== 'sent') throw conflict('envelope_not_open', `Envelope ${id} is ${envelope.status}: only a sent envelope can be voided`);
    const events = [...envelope.events, { type: 'voided' as const, at: this.now().toISOString() }];
    if (!(await this.envelopes.update(organizationId, id, { status: 'voided', events, completedAt: this.now() }, this.now(), 'sent')))
      throw conflict('envelope_not_open', `Envelope ${id} was completed meanwhile`);
    return this.get(organizationId, id);
  }

  /** The signing page: the envelope behind the link (the first view is recorded in the audit trail). */
  async view(token: string, context: SignerContext): Promise<SigningView> {
    let envelope = await this.open(token);
    if (envelope.status === 'sent' && !envelope.events.some((e) => e.type === 'viewed')) {
      const viewed: EnvelopeEvent = { type: 'viewed', at: this.now().toISOString(), ...this.context(context) };
      // Appended in the UPDATE: a reminder recorded at the same moment keeps its event.
      await this.envelopes.update(envelope.organizationId, envelope.id, { appendEvents: [viewed] }, this.now(), 'sent');
      envelope = { ...envelope, events: [...envelope.events, viewed] };
    }
    return { envelope, organizationName: await this.ports.organizationName(envelope.organizationId), token, expired: this.isExpired(envelope) };
  }

  /** The original PDF for the signer (the link is the credential). */
  async signerDocument(token: string): Promise<{ envelope: Envelope; pdf: Buffer }> {
    const envelope = await this.open(token);
    const pdf = await this.envelopes.document(envelope.organizationId, envelope.id, envelope.status === 'signed' ? 'signed' : 'original');
    if (!pdf) throw notFound('document');
    return { envelope, pdf };
  }

  async sign(token: string, input: SigningInput, context: SignerContext): Promise<SigningView> {
    const envelope = this.assertOpen(await this.open(token));
    if (!input.consent) throw new DomainError('invalid', 'consent_required', 'Consent to sign electronically is required', { param: 'consent' });
    const typedName = input.typedName.trim();
    if (typedName.length < 1 || typedName.length > 200)
      throw new DomainError('invalid', 'signature_name_required', 'Type your full name (1 to 200 characters)', { param: 'typed_name' });
    const image = input.drawn ? signatureImage(input.drawn) : null;
    const signature: EnvelopeSignature = { method: image ? 'drawn' : 'typed', typedName, image };
    const now = this.now();
    const who = this.context(context);
    const events: EnvelopeEvent[] = [
      ...envelope.events,
      { type: 'consented', at: now.toISOString(), ...who },
      {
        type: 'signed',
        at: now.toISOString(),
        ...who,
        detail: signature.method === 'drawn' ? `drawn mark and typed name "${typedName}"` : `typed name "${typedName}"`,
      },
    ];
    const organizationName = await this.ports.organizationName(envelope.organizationId);
    const trail = { envelopeId: envelope.id, organizationName, signer: envelope.signer, originalSha256: envelope.documentSha256, events, signedAt: now };
    let sealed: Buffer;
    try {
      const credential = await this.certificates.credential(envelope.organizationId, organizationName);
      sealed = await this.documents.seal(
        { title: envelope.title, text: envelope.documentText, organizationName, envelopeId: envelope.id },
        signature,
        trail,
        credential,
        await this.ports.timestampAuthorityUrl(envelope.organizationId),
      );
    } catch (error) {
      // A time-stamp authority that failed (PAdES-B-T) is an `upstream` error: nothing is recorded, the signer may try again.
      if (isDomainError(error)) throw error;
      // The organization's key could not sign (a certificate the signer library refuses): nothing is recorded, the signer may try again.
      this.logger.error(
        { organizationId: envelope.organizationId, envelopeId: envelope.id, err: (error as Error).message },
        'sealing a signed document failed',
      );
      throw conflict('signing_failed', 'The document could not be sealed with the sender’s certificate; please try again later or contact the sender');
    }
    const signedDocumentSha256 = sha256(sealed);
    const finalEvents: EnvelopeEvent[] = [...events, { type: 'sealed', at: this.now().toISOString(), detail: `SHA-256 ${signedDocumentSha256}` }];
    const won = await this.envelopes.update(
      envelope.organizationId,
      envelope.id,
      { status: 'signed', signature, signedDocument: sealed, signedDocumentSha256, events: finalEvents, completedAt: now },
      this.now(),
      'sent',
    );
    if (!won) throw conflict('envelope_not_open', 'This document was completed meanwhile');
    const signed: Envelope = { ...envelope, status: 'signed', signature, signedDocumentSha256, events: finalEvents, completedAt: now };
    await this.sendSigned(signed, organizationName, sealed);
    await this.publish(`${envelope.kind}.signed`, signed, {
      ...this.payload(signed),
      signed_at: now.toISOString(),
      signed_document_sha256: signedDocumentSha256,
    });
    return { envelope: signed, organizationName, token, expired: false };
  }

  async decline(token: string, reason: string, context: SignerContext): Promise<SigningView> {
    const envelope = this.assertOpen(await this.open(token));
    const now = this.now();
    const declineReason = clip(reason.trim(), 1000);
    const events: EnvelopeEvent[] = [...envelope.events, { type: 'declined', at: now.toISOString(), ...this.context(context) }];
    const won = await this.envelopes.update(envelope.organizationId, envelope.id, { status: 'declined', declineReason, events, completedAt: now }, now, 'sent');
    if (!won) throw conflict('envelope_not_open', 'This document was completed meanwhile');
    const declined: Envelope = { ...envelope, status: 'declined', declineReason, events, completedAt: now };
    await this.publish(`${envelope.kind}.declined`, declined, { ...this.payload(declined), declined_at: now.toISOString(), reason: declineReason || null });
    return { envelope: declined, organizationName: await this.ports.organizationName(envelope.organizationId), token, expired: false };
  }

  /** Expires every sent envelope past its expiry (the sweep job, or an operator's test clock `at`). */
  async expireDue(at?: Date): Promise<{ expired: number }> {
    const now = at ?? this.now();
    const expired = await this.envelopes.expireDue(now, { type: 'expired', at: now.toISOString() });
    for (const envelope of expired)
      await this.publish(`${envelope.kind}.expired`, envelope, { ...this.payload(envelope), expired_at: envelope.expiresAt.toISOString() });
    return { expired: expired.length };
  }

  /**
   * Sends every reminder due at `at` (the sweep job, or an operator's test clock): for each open
   * envelope of an organization with reminders on and the kind's license, the slot its schedule
   * says is due is claimed in the database (one UPDATE, so two sweeps send it once) and the signer
   * gets the same signing link again by email, and by SMS when the link went by SMS and an SMS
   * connection still resolves; each an action run; then `offer.reminder_sent` / `agreement.reminder_sent`.
   */
  async remindDue(at?: Date): Promise<ReminderReport> {
    const now = at ?? this.now();
    const report: ReminderReport = { reminded: 0, expiry_notices: 0, failed: 0, retry_later: 0 };
    const licensed = new Map<string, boolean>();
    const names = new Map<string, string>();
    let afterId: string | undefined;
    for (;;) {
      const page = await this.envelopes.remindable(now, REMINDER_PAGE, afterId);
      afterId = page[page.length - 1]?.envelope.id;
      for (const { envelope, settings } of page) {
        const slot = dueReminder(envelope, settings, now);
        if (!slot) continue;
        const licenseKey = `${envelope.organizationId} ${envelope.kind}`;
        if (!licensed.has(licenseKey)) licensed.set(licenseKey, await this.ports.licensed(envelope.organizationId, ACTION_OF[envelope.kind]));
        // Without the license the organization sends nothing (the slot stays unclaimed).
        if (!licensed.get(licenseKey)) continue;
        if (!(await this.envelopes.claimReminder(envelope.organizationId, envelope.id, slot.dueAt, now))) continue;
        if (!names.has(envelope.organizationId)) names.set(envelope.organizationId, await this.ports.organizationName(envelope.organizationId));
        const outcome = await this.remind(envelope, slot, names.get(envelope.organizationId)!, now);
        if (outcome === 'sent') report[slot.kind === 'expiry_notice' ? 'expiry_notices' : 'reminded']++;
        else report[outcome]++;
      }
      if (page.length < REMINDER_PAGE) break;
    }
    return report;
  }

  /** One claimed slot: the messages, the record on the envelope, the event. */
  private async remind(envelope: Envelope, slot: ReminderSlot, organizationName: string, now: Date): Promise<'sent' | 'failed' | 'retry_later'> {
    const language = messageLanguage(envelope.language);
    const s = SIGNING_STRINGS[language.locale];
    const notice = slot.kind === 'expiry_notice';
    // The signing link does not expire before the envelope (a week after it): the same link, signed again identically.
    const url = this.url(envelope);
    const params = {
      name: envelope.signer.name,
      organization: organizationName,
      title: envelope.title,
      url,
      expires: formatMoment(envelope.expiresAt, language, undefined, notice ? 'full' : 'date'),
    };
    const subject = fill(notice ? s.expiry_subject : s.reminder_subject, params);
    const base = { organizationId: envelope.organizationId, actionKey: ACTION_OF[envelope.kind] };
    const key = `esign-reminder-${envelope.id}-${slot.dueAt.getTime()}`;
    const reminder: EnvelopeReminder = {
      kind: slot.kind,
      number: slot.number,
      dueAt: slot.dueAt.toISOString(),
      sentAt: now.toISOString(),
      emailRunId: null,
      smsRunId: null,
    };
    try {
      reminder.emailRunId = (
        await this.ports.email.sendEmail({
          ...base,
          idempotencyKey: `${key}-email`,
          to: { name: envelope.signer.name, email: envelope.signer.email },
          subject,
          text: fill(notice ? s.expiry_body : s.reminder_body, params),
          language: language.tag,
        })
      ).deliveryId;
    } catch (error) {
      if (!isDomainError(error)) throw error;
      if (error.kind === 'upstream') {
        // The mail server did not answer: the slot goes back, and the next sweep tries the same run again.
        await this.envelopes.releaseReminder(envelope.organizationId, envelope.id, slot.dueAt, envelope.reminderDueAt);
        this.logger.warn({ organizationId: envelope.organizationId, envelopeId: envelope.id, reason: error.code }, 'a reminder to sign will be tried again');
        return 'retry_later';
      }
      // Refused for good (no connection, a rejected address): the failed run says why; the slot is spent.
      reminder.error = error.code;
    }
    // By SMS as well when the link went by SMS and an SMS connection still resolves.
    if (envelope.smsRunId && envelope.signer.phone && (await this.ports.smsAvailable(envelope.organizationId))) {
      try {
        reminder.smsRunId = (
          await this.ports.sms.sendSms({ ...base, idempotencyKey: `${key}-sms`, to: envelope.signer.phone, text: `${subject}: ${url}` })
        ).deliveryId;
      } catch (error) {
        if (!isDomainError(error)) throw error;
        this.logger.warn({ organizationId: envelope.organizationId, envelopeId: envelope.id, reason: error.code }, 'a reminder SMS could not be sent');
      }
    }
    const channels = [reminder.emailRunId ? 'email' : '', reminder.smsRunId ? 'sms' : ''].filter(Boolean).join(', ');
    const detail = `${notice ? 'expiry notice' : `reminder ${slot.number}`}${channels ? ` by ${channels}` : `, not sent (${reminder.error})`}`;
    await this.envelopes.recordReminder(envelope.organizationId, envelope.id, reminder, { type: 'reminded', at: now.toISOString(), detail }, now);
    if (!reminder.emailRunId && !reminder.smsRunId) return 'failed';
    const reminded = { ...envelope, reminderDueAt: slot.dueAt, reminders: [...envelope.reminders, reminder] };
    await this.publish(
      `${envelope.kind}.reminder_sent`,
      reminded,
      {
        ...this.payload(reminded),
        reminder: { kind: slot.kind, number: slot.number, due_at: reminder.dueAt, email_run_id: reminder.emailRunId, sms_run_id: reminder.smsRunId },
        sent_at: reminder.sentAt,
        expires_at: envelope.expiresAt.toISOString(),
      },
      `:${slot.dueAt.getTime()}`,
    );
    return 'sent';
  }

  /** When the envelope's next reminder falls due under the organization's schedule (null: none will). */
  async nextReminder(envelope: Envelope, settings?: ReminderSettings): Promise<Date | null> {
    if (envelope.status !== 'sent') return null;
    return nextReminderAt(envelope, settings ?? (await this.ports.reminderSettings(envelope.organizationId)), this.now());
  }

  private async withLink(envelope: Envelope, settings?: ReminderSettings): Promise<EnvelopeView> {
    return { ...envelope, url: this.url(envelope), nextReminderAt: await this.nextReminder(envelope, settings) };
  }

  private async open(token: string): Promise<Envelope> {
    const claims = verifySigningLink(this.linkKey, token, this.now());
    const envelope = await this.envelopes.get(claims.organizationId, claims.envelopeId);
    if (!envelope) throw new DomainError('not_found', 'link_not_found', 'Nothing is behind this link any more (the envelope was erased)');
    return envelope;
  }

  private isExpired(envelope: Envelope): boolean {
    return envelope.status === 'expired' || (envelope.status === 'sent' && envelope.expiresAt <= this.now());
  }

  /** Only a sent envelope can be signed or declined; one past its expiry cannot, even before the sweep marks it. */
  private assertOpen(envelope: Envelope): Envelope {
    if (envelope.status === 'sent' && envelope.expiresAt <= this.now())
      throw new DomainError('gone', 'envelope_expired', 'The time to sign this document has passed');
    if (envelope.status !== 'sent') throw conflict('envelope_not_open', `This document is ${envelope.status}`);
    return envelope;
  }

  private context(context: SignerContext): { ip: string; userAgent: string } {
    return { ip: clip(context.ip, 64), userAgent: clip(context.userAgent, 300) };
  }

  private async sendLink(envelope: Envelope, organizationName: string, url: string): Promise<{ emailRunId: string | null; smsRunId: string | null }> {
    const language = messageLanguage(envelope.language);
    const s = SIGNING_STRINGS[language.locale];
    const params = {
      name: envelope.signer.name,
      organization: organizationName,
      title: envelope.title,
      url,
      expires: formatMoment(envelope.expiresAt, language, undefined, 'date'),
    };
    const base = { organizationId: envelope.organizationId, actionKey: ACTION_OF[envelope.kind] };
    const runs: { emailRunId: string | null; smsRunId: string | null } = { emailRunId: null, smsRunId: null };
    try {
      const email = await this.ports.email.sendEmail({
        ...base,
        idempotencyKey: `esign-link-${envelope.id}-email`,
        to: { name: envelope.signer.name, email: envelope.signer.email },
        subject: fill(s.email_subject, params),
        text: fill(s.email_body, params),
        language: language.tag,
      });
      runs.emailRunId = email.deliveryId;
      if (envelope.signer.phone && (await this.ports.smsAvailable(envelope.organizationId))) {
        const sms = await this.ports.sms.sendSms({
          ...base,
          idempotencyKey: `esign-link-${envelope.id}-sms`,
          to: envelope.signer.phone,
          text: `${fill(s.email_subject, params)}: ${url}`,
        });
        runs.smsRunId = sms.deliveryId;
      }
    } catch (error) {
      // Nothing reached the signer and the mail server is away: no envelope is left behind, so a retry makes the one envelope.
      if (!runs.emailRunId && (!isDomainError(error) || error.kind === 'upstream')) {
        await this.envelopes.remove(envelope.organizationId, envelope.id);
        throw error;
      }
      if (!isDomainError(error)) throw error;
      // The envelope exists and its link works; the failed run says why a message did not go.
      this.logger.warn({ organizationId: envelope.organizationId, envelopeId: envelope.id, reason: error.code }, 'a signing link could not be sent');
    }
    return runs;
  }

  private async sendSigned(envelope: Envelope, organizationName: string, pdf: Buffer): Promise<void> {
    const language = messageLanguage(envelope.language);
    const s = SIGNING_STRINGS[language.locale];
    const params = { name: envelope.signer.name, organization: organizationName, title: envelope.title };
    try {
      await this.ports.email.sendEmail({
        organizationId: envelope.organizationId,
        actionKey: ACTION_OF[envelope.kind],
        idempotencyKey: `esign-signed-${envelope.id}-email`,
        to: { name: envelope.signer.name, email: envelope.signer.email },
        subject: fill(s.signed_subject, params),
        text: fill(s.signed_body, params),
        language: language.tag,
        attachments: [{ filename: `${envelope.id}-signed.pdf`, contentType: 'application/pdf', content: pdf }],
      });
    } catch (error) {
      // The signature stands (the organization has the document); the failed run says the copy did not go.
      if (!isDomainError(error)) throw error;
      this.logger.warn({ organizationId: envelope.organizationId, envelopeId: envelope.id, reason: error.code }, 'the signed document could not be emailed');
    }
  }

  private payload(envelope: Envelope): Record<string, unknown> {
    return {
      envelope_id: envelope.id,
      kind: envelope.kind,
      ...(envelope.kind === 'offer' ? { offer_id: envelope.referenceId } : { agreement_id: envelope.referenceId }),
      title: envelope.title,
      signer: { name: envelope.signer.name, email: envelope.signer.email },
      document_sha256: envelope.documentSha256,
    };
  }

  private async publish(event: string, envelope: Envelope, payload: Record<string, unknown>, dedupeSuffix = ''): Promise<void> {
    await this.events
      .publish(event, envelope.organizationId, JSON.parse(JSON.stringify(payload)) as object, { dedupeKey: `${event}:${envelope.id}${dedupeSuffix}` })
      .catch((error: Error) => this.logger.warn({ envelopeId: envelope.id, event, err: error.message }, 'publishing an e-signature event failed'));
  }

  url(envelope: Pick<Envelope, 'organizationId' | 'id' | 'expiresAt'>): string {
    const token = signSigningLink(this.linkKey, {
      organizationId: envelope.organizationId,
      envelopeId: envelope.id,
      expiresAt: new Date(envelope.expiresAt.getTime() + LINK_AFTER_EXPIRY_MS),
    });
    return `${this.options.baseUrl.replace(/\/$/, '')}/v1/sign?token=${token}`;
  }
}
