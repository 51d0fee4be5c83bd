/** E-signature templates, envelopes and the signing certificate (zod: validation and /v1/openapi.json). */
import { z } from 'zod';
import { isoDateTime } from '../../../platform/http/common-schemas';
import { DEFAULT_REMINDERS, MAX_REMINDER_DAYS, MIN_REMINDER_DAYS } from '../domain/reminder-schedule';
import { KNOWN_PLACEHOLDERS, MAX_TEMPLATE_LENGTH } from '../domain/template-language';

const kind = z
  .enum(['offer', 'agreement'])
  .meta({ description: 'offer: an offer letter (esign.send_offer); agreement: an NDA, contractor agreement… (esign.send_agreement)' });
const templateText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .meta({
      description: `Plain text with placeholders {{name}}: ${KNOWN_PLACEHOLDERS.join(', ')}, or fields.<lowercase_key> (a value given with the envelope). Lines starting "# " are headings, a blank line separates paragraphs. No expressions: nothing in a template runs.`,
    });

export const templateBody = z
  .strictObject({
    kind,
    name: z.string().min(1).max(200),
    title: templateText(300).meta({ example: '{{document.title}}' }),
    body: templateText(MAX_TEMPLATE_LENGTH).meta({
      example: '# Offer\n\nDear {{candidate.name}},\n\nWe offer you {{offer.job_title}} at {{offer.salary}} {{offer.currency}}.',
    }),
  })
  .meta({ id: 'EsignTemplateCreate' });

export const templatePatch = z
  .strictObject({ name: z.string().min(1).max(200).optional(), title: templateText(300).optional(), body: templateText(MAX_TEMPLATE_LENGTH).optional() })
  .meta({ id: 'EsignTemplateUpdate' });

export const templateSchema = z
  .object({
    id: z.string().meta({ example: 'etpl_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('esign_template'),
    kind,
    name: z.string(),
    title: z.string(),
    body: z.string(),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'EsignTemplate' });

const valueKey = z
  .string()
  .regex(
    /^(offer\.(job_title|salary|currency|start_date)|fields\.[a-z][a-z0-9_]{0,39})$/,
    'offer.job_title, offer.salary, offer.currency, offer.start_date or fields.<key>',
  );

export const envelopeBody = z
  .strictObject({
    kind,
    reference_id: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,128}$/)
      .meta({ description: 'The host’s id of what is signed (the offer’s id for an offer)', example: 'off_42' }),
    template_id: z.string().max(100).optional().meta({ description: 'Default: the organization’s newest template of the kind, else the built-in one' }),
    title: z.string().min(1).max(200).optional().meta({ description: 'The document title ({{document.title}}); default "Offer letter" / "Agreement"' }),
    signer: z.strictObject({
      name: z.string().min(1).max(200),
      email: z.email().max(254),
      phone: z
        .string()
        .regex(/^\+[1-9][0-9]{6,14}$/, 'an E.164 phone number')
        .optional()
        .meta({ description: 'The link also goes by SMS when an SMS connector resolves' }),
      language: z.string().max(35).optional().meta({ description: 'BCP 47: en, es, fr, de, pt, ar (others: English)', example: 'es' }),
    }),
    values: z
      .record(valueKey, z.string().max(500))
      .refine((v) => Object.keys(v).length <= 50, 'at most 50 values')
      .optional()
      .meta({ description: 'Placeholder values', example: { 'offer.job_title': 'Engineer', 'offer.salary': '85,000', 'offer.currency': 'EUR' } }),
    expires_in_days: z.number().int().min(1).max(90).optional().meta({ description: 'Days the signer has to sign (default 14); then the envelope expires' }),
  })
  .meta({ id: 'EnvelopeCreate' });

const event = z.object({
  type: z.string(),
  at: isoDateTime,
  ip: z.string().optional(),
  user_agent: z.string().optional(),
  detail: z.string().optional(),
});

export const envelopeSchema = z
  .object({
    id: z.string().meta({ example: 'env_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('envelope'),
    kind,
    reference_id: z.string(),
    template_id: z.string().nullable(),
    title: z.string(),
    status: z.enum(['sent', 'signed', 'declined', 'voided', 'expired']),
    signer: z.object({ name: z.string(), email: z.string(), phone: z.string().nullable(), language: z.string() }),
    url: z.string().meta({ description: 'The signer’s signed link (sent by email and SMS): treat it as a secret' }),
    document_sha256: z.string().meta({ description: 'SHA-256 (hex) of the PDF as sent' }),
    signed_document_sha256: z.string().nullable(),
    signature_method: z.enum(['typed', 'drawn']).nullable(),
    decline_reason: z.string().nullable(),
    events: z.array(event).meta({ description: 'The audit trail: created, sent, viewed, consented, signed / declined / voided / expired, sealed' }),
    email_run_id: z.string().nullable().meta({ description: 'The action run that emailed the link' }),
    sms_run_id: z.string().nullable().meta({ description: 'The action run that sent the link by SMS' }),
    reminders: z
      .array(
        z.object({
          kind: z.enum(['reminder', 'expiry_notice']),
          number: z.number().int(),
          sent_at: isoDateTime,
          email_run_id: z.string().nullable(),
          sms_run_id: z.string().nullable(),
          error: z.string().nullable().meta({ description: 'Why the email could not be sent (its failed run says more)' }),
        }),
      )
      .meta({ description: 'Reminders to sign and the notice before expiry the signer was sent (the same link again), oldest first' }),
    next_reminder_at: isoDateTime
      .nullable()
      .meta({ description: 'When the next reminder falls due under the organization’s schedule (sent by the sweep within 15 minutes); null when none will' }),
    expires_at: isoDateTime,
    completed_at: isoDateTime.nullable(),
    created_at: isoDateTime,
  })
  .meta({ id: 'Envelope' });

export const documentQuery = z
  .strictObject({ version: z.enum(['original', 'signed']).default('signed').meta({ description: 'signed (default): the sealed PDF; original: as sent' }) })
  .meta({ id: 'EnvelopeDocumentQuery' });

export const certificateUpload = z
  .strictObject({
    p12_base64: z
      .string()
      .min(4)
      .max(64_000)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64')
      .meta({ description: 'The PKCS#12 (.p12/.pfx) with the private key and its certificate, base64' }),
    passphrase: z.string().max(200),
  })
  .meta({ id: 'SigningCertificateUpload' });

export const certificateSchema = z
  .object({
    object: z.literal('signing_certificate'),
    source: z.enum(['uploaded', 'generated', 'none']).meta({ description: 'none: a self-signed certificate is made at the first signature' }),
    subject: z.string().nullable(),
    fingerprint_sha256: z.string().nullable(),
    not_after: isoDateTime.nullable(),
    created_at: isoDateTime.nullable(),
  })
  .meta({ id: 'SigningCertificate' });

const reminderDays = (description: string) => z.number().int().min(MIN_REMINDER_DAYS).max(MAX_REMINDER_DAYS).meta({ description });

export const remindersPatch = z
  .strictObject({
    enabled: z.boolean().optional().meta({ description: 'false: no reminders and no expiry notice (default true)' }),
    first_after_days: reminderDays(
      `Days after the link went until the first reminder (${MIN_REMINDER_DAYS}–${MAX_REMINDER_DAYS}, default ${DEFAULT_REMINDERS.firstAfterDays})`,
    ).optional(),
    every_days: reminderDays(
      `Days between reminders after the first (${MIN_REMINDER_DAYS}–${MAX_REMINDER_DAYS}, default ${DEFAULT_REMINDERS.everyDays})`,
    ).optional(),
    expiry_notice: z
      .boolean()
      .optional()
      .meta({ description: 'A last notice a day before the envelope expires, instead of a reminder in that day (default true)' }),
  })
  .meta({ id: 'EsignRemindersUpdate', example: { first_after_days: 2, every_days: 3 } });

export const remindersSchema = z
  .object({ enabled: z.boolean(), first_after_days: z.number().int(), every_days: z.number().int(), expiry_notice: z.boolean() })
  .meta({ id: 'EsignReminders', description: 'Reminders to sign for every open envelope of the organization' });

export const settingsPatch = z
  .strictObject({
    reminders: remindersPatch.optional(),
    timestamp_authority_url: z.string().min(1).max(2048).nullable().optional().meta({
      description:
        'An RFC 3161 time-stamp authority (http(s) URL): signatures become PAdES-B-T, time-stamped by it. Checked when saved: it must pass the outbound URL policy and answer a time-stamp request. null: PAdES-B-B',
      example: 'http://timestamp.example.com/tsa',
    }),
  })
  .meta({ id: 'EsignSettingsUpdate' });

export const settingsSchema = z
  .object({
    object: z.literal('esign_settings'),
    signature_level: z.enum(['PAdES-B-B', 'PAdES-B-T']).meta({ description: 'What the next sealed PDF carries' }),
    timestamp_authority_url: z.string().nullable(),
    reminders: remindersSchema,
    updated_at: isoDateTime.nullable(),
  })
  .meta({ id: 'EsignSettings' });
