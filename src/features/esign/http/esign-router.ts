/**
 * Mounted at /v1/esign: templates, envelopes (create, read, void, the PDFs) and the
 * organization's signing certificate. The signer's page is esign-page-router.ts (/v1/sign).
 */
import { notFound } from '../../../kernel/errors';
import { listOf } from '../../../platform/http/common-schemas';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { EnvelopeView, Envelopes } from '../domain/envelopes';
import type { CertificateInfo, EsignSettings, SigningCertificates } from '../domain/ports';
import type { SignatureSettings } from '../domain/signature-settings';
import type { DocumentTemplate, DocumentTemplates } from '../domain/templates';
import {
  certificateSchema,
  settingsPatch,
  settingsSchema,
  certificateUpload,
  documentQuery,
  envelopeBody,
  envelopeSchema,
  templateBody,
  templatePatch,
  templateSchema,
} from './esign-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const templateParams = z.object({ template_id: z.string().max(100) });
const envelopeParams = z.object({ envelope_id: z.string().max(100) });

export const templateView = (t: DocumentTemplate): z.output<typeof templateSchema> => ({
  id: t.id,
  object: 'esign_template',
  kind: t.kind,
  name: t.name,
  title: t.title,
  body: t.body,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
});

export const envelopeView = (e: EnvelopeView): z.output<typeof envelopeSchema> => ({
  id: e.id,
  object: 'envelope',
  kind: e.kind,
  reference_id: e.referenceId,
  template_id: e.templateId,
  title: e.title,
  status: e.status,
  signer: { name: e.signer.name, email: e.signer.email, phone: e.signer.phone, language: e.language },
  url: e.url,
  document_sha256: e.documentSha256,
  signed_document_sha256: e.signedDocumentSha256,
  signature_method: e.signature?.method ?? null,
  decline_reason: e.declineReason,
  events: e.events.map((ev) => ({
    type: ev.type,
    at: ev.at,
    ...(ev.ip ? { ip: ev.ip } : {}),
    ...(ev.userAgent ? { user_agent: ev.userAgent } : {}),
    ...(ev.detail ? { detail: ev.detail } : {}),
  })),
  email_run_id: e.emailRunId,
  sms_run_id: e.smsRunId,
  reminders: e.reminders.map((r) => ({
    kind: r.kind,
    number: r.number,
    sent_at: r.sentAt,
    email_run_id: r.emailRunId,
    sms_run_id: r.smsRunId,
    error: r.error ?? null,
  })),
  next_reminder_at: e.nextReminderAt?.toISOString() ?? null,
  expires_at: e.expiresAt.toISOString(),
  completed_at: e.completedAt?.toISOString() ?? null,
  created_at: e.createdAt.toISOString(),
});

const certificateView = (c: CertificateInfo | undefined): z.output<typeof certificateSchema> => ({
  object: 'signing_certificate',
  source: c?.source ?? 'none',
  subject: c?.subject ?? null,
  fingerprint_sha256: c?.fingerprintSha256 ?? null,
  not_after: c?.notAfter.toISOString() ?? null,
  created_at: c?.createdAt.toISOString() ?? null,
});

const settingsView = (s: EsignSettings): z.output<typeof settingsSchema> => ({
  object: 'esign_settings',
  signature_level: s.timestampAuthorityUrl ? 'PAdES-B-T' : 'PAdES-B-B',
  timestamp_authority_url: s.timestampAuthorityUrl,
  reminders: {
    enabled: s.reminders.enabled,
    first_after_days: s.reminders.firstAfterDays,
    every_days: s.reminders.everyDays,
    expiry_notice: s.reminders.expiryNotice,
  },
  updated_at: s.updatedAt?.toISOString() ?? null,
});

export interface EsignRouteServices {
  envelopes: Envelopes;
  templates: DocumentTemplates;
  certificates: SigningCertificates;
  settings: SignatureSettings;
  /** Outside production: the operator may run the expiry and reminder sweeps at a test clock's time. */
  testClocks: boolean;
}

export function esignRoutes(s: EsignRouteServices): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/templates',
      operationId: 'listEsignTemplates',
      summary: 'The organization’s document templates (offer letters, agreements), oldest first',
      tags: ['esign'],
      auth: ['organization'],
      response: z.object({ object: z.literal('list'), data: z.array(templateSchema), has_more: z.boolean() }),
      handler: async ({ principal }) => ({ object: 'list' as const, data: (await s.templates.list(orgId(principal))).map(templateView), has_more: false }),
    }),
    defineRoute({
      method: 'post',
      path: '/templates',
      operationId: 'createEsignTemplate',
      summary: 'Add a template (checked: an unknown placeholder is 400 template_placeholder_unknown, stray braces 400 template_syntax_invalid)',
      tags: ['esign'],
      auth: ['organization'],
      body: templateBody,
      status: 201,
      response: templateSchema,
      handler: async ({ principal, body }) => reply(201, templateView(await s.templates.create(orgId(principal), body))),
    }),
    defineRoute({
      method: 'get',
      path: '/templates/:template_id',
      operationId: 'getEsignTemplate',
      summary: 'One template',
      tags: ['esign'],
      auth: ['organization'],
      params: templateParams,
      response: templateSchema,
      handler: async ({ principal, params }) => templateView(await s.templates.get(orgId(principal), params.template_id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/templates/:template_id',
      operationId: 'updateEsignTemplate',
      summary: 'Change a template’s name, title or body (checked as on create); envelopes already sent keep their text',
      tags: ['esign'],
      auth: ['organization'],
      params: templateParams,
      body: templatePatch,
      response: templateSchema,
      handler: async ({ principal, params, body }) =>
        templateView(
          await s.templates.update(orgId(principal), params.template_id, {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.title !== undefined ? { title: body.title } : {}),
            ...(body.body !== undefined ? { body: body.body } : {}),
          }),
        ),
    }),
    defineRoute({
      method: 'delete',
      path: '/templates/:template_id',
      operationId: 'deleteEsignTemplate',
      summary: 'Delete a template; envelopes already sent keep their text',
      tags: ['esign'],
      auth: ['organization'],
      params: templateParams,
      response: z.object({ id: z.string(), object: z.literal('esign_template'), deleted: z.literal(true) }),
      handler: async ({ principal, params }) => {
        await s.templates.remove(orgId(principal), params.template_id);
        return { id: params.template_id, object: 'esign_template' as const, deleted: true as const };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/envelopes',
      operationId: 'createEnvelope',
      summary:
        'Send a document for signature (esign.send_offer or esign.send_agreement by kind): the PDF from the template and values, a signed link to the signer by email (and SMS)',
      tags: ['esign'],
      auth: ['organization'],
      idempotent: true,
      body: envelopeBody,
      status: 201,
      response: envelopeSchema,
      // 403 license_required; 404 template; 400 template_value_missing; 503 the mail server did not answer (no envelope is left).
      errors: [403, 404, 503],
      handler: async ({ principal, body }) =>
        reply(
          201,
          envelopeView(
            await s.envelopes.create(orgId(principal), {
              kind: body.kind,
              referenceId: body.reference_id,
              ...(body.template_id ? { templateId: body.template_id } : {}),
              ...(body.title ? { title: body.title } : {}),
              signer: {
                name: body.signer.name,
                email: body.signer.email,
                ...(body.signer.phone ? { phone: body.signer.phone } : {}),
                ...(body.signer.language ? { language: body.signer.language } : {}),
              },
              ...(body.values ? { values: body.values } : {}),
              ...(body.expires_in_days ? { expiresInDays: body.expires_in_days } : {}),
            }),
          ),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/envelopes',
      operationId: 'listEnvelopes',
      summary: 'The organization’s envelopes, newest first: those of one host id (`reference_id`, e.g. an offer) or one status',
      tags: ['esign'],
      auth: ['organization'],
      query: z
        .object({
          reference_id: z.string().min(1).max(128).optional(),
          status: z.enum(['sent', 'signed', 'declined', 'voided', 'expired']).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(25),
        })
        .strict(),
      response: listOf(envelopeSchema),
      handler: async ({ principal, query }) => {
        const data = await s.envelopes.list(orgId(principal), {
          ...(query.reference_id ? { referenceId: query.reference_id } : {}),
          ...(query.status ? { status: query.status } : {}),
          limit: query.limit,
        });
        return { object: 'list' as const, data: data.map(envelopeView), has_more: data.length === query.limit, url: '/v1/esign/envelopes' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/envelopes/:envelope_id',
      operationId: 'getEnvelope',
      summary: 'One envelope: its status, the audit events, the runs that sent the link',
      tags: ['esign'],
      auth: ['organization'],
      params: envelopeParams,
      response: envelopeSchema,
      handler: async ({ principal, params }) => envelopeView(await s.envelopes.get(orgId(principal), params.envelope_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/envelopes/:envelope_id/void',
      operationId: 'voidEnvelope',
      summary: 'Withdraw a sent envelope: the link no longer signs (409 envelope_not_open once signed, declined or expired)',
      tags: ['esign'],
      auth: ['organization'],
      params: envelopeParams,
      response: envelopeSchema,
      errors: [409],
      handler: async ({ principal, params }) => envelopeView(await s.envelopes.void(orgId(principal), params.envelope_id)),
    }),
    defineRoute({
      method: 'get',
      path: '/envelopes/:envelope_id/document',
      operationId: 'getEnvelopeDocument',
      summary: 'The PDF: the signed one (signature, audit-trail page, PDF digital signature) or, with version=original, the document as sent',
      tags: ['esign'],
      auth: ['organization'],
      params: envelopeParams,
      query: documentQuery,
      produces: ['application/pdf'],
      errors: [409],
      handler: async ({ principal, params, query, res }) => {
        const { envelope, pdf } = await s.envelopes.document(orgId(principal), params.envelope_id, query.version);
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Content-Type', 'application/pdf');
        res.setHeader('Content-Disposition', `attachment; filename="${envelope.id}-${query.version}.pdf"`);
        res.status(200).send(pdf);
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/certificate',
      operationId: 'getSigningCertificate',
      summary: 'The certificate the organization’s signed PDFs are signed with (never the key)',
      tags: ['esign'],
      auth: ['organization'],
      response: certificateSchema,
      handler: async ({ principal }) => certificateView(await s.certificates.info(orgId(principal))),
    }),
    defineRoute({
      method: 'put',
      path: '/certificate',
      operationId: 'putSigningCertificate',
      summary: 'Upload the organization’s PKCS#12 (kept encrypted); 400 certificate_invalid or certificate_expired when it cannot sign',
      tags: ['esign'],
      auth: ['organization'],
      body: certificateUpload,
      response: certificateSchema,
      handler: async ({ principal, body }) =>
        certificateView(await s.certificates.upload(orgId(principal), Buffer.from(body.p12_base64, 'base64'), body.passphrase)),
    }),
    defineRoute({
      method: 'delete',
      path: '/certificate',
      operationId: 'deleteSigningCertificate',
      summary: 'Remove the uploaded (or generated) certificate: the next signature uses a new self-signed one',
      tags: ['esign'],
      auth: ['organization'],
      response: certificateSchema,
      handler: async ({ principal }) => {
        await s.certificates.remove(orgId(principal));
        return certificateView(undefined);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/settings',
      operationId: 'getEsignSettings',
      summary: 'The organization’s signature settings: the level (PAdES-B-B, or PAdES-B-T with its time-stamp authority) and the reminder schedule',
      tags: ['esign'],
      auth: ['organization'],
      response: settingsSchema,
      handler: async ({ principal }) => settingsView(await s.settings.get(orgId(principal))),
    }),
    defineRoute({
      method: 'patch',
      path: '/settings',
      operationId: 'updateEsignSettings',
      summary:
        'Change what is given: the reminder schedule (merged), or set (PAdES-B-T) or clear (PAdES-B-B) the time-stamp authority; 400 url_* when the URL is refused, timestamp_unavailable / timestamp_refused / timestamp_invalid when it does not time-stamp',
      tags: ['esign'],
      auth: ['organization'],
      body: settingsPatch,
      response: settingsSchema,
      handler: async ({ principal, body }) =>
        settingsView(
          await s.settings.update(orgId(principal), {
            ...(body.timestamp_authority_url !== undefined ? { timestampAuthorityUrl: body.timestamp_authority_url } : {}),
            ...(body.reminders
              ? {
                  reminders: {
                    enabled: body.reminders.enabled,
                    firstAfterDays: body.reminders.first_after_days,
                    everyDays: body.reminders.every_days,
                    expiryNotice: body.reminders.expiry_notice,
                  },
                }
              : {}),
          }),
        ),
    }),
    defineRoute({
      method: 'post',
      path: '/operator/expire',
      operationId: 'operatorExpireEnvelopes',
      summary: 'Operator, outside production: runs the expiry sweep now, or as of `at` (a test clock)',
      tags: ['esign'],
      auth: ['operator'],
      body: z.object({ at: z.iso.datetime({ offset: true }).optional() }).strict(),
      response: z.object({ expired: z.number().int() }),
      handler: async ({ body }) => {
        if (!s.testClocks) throw notFound('test clock');
        return s.envelopes.expireDue(body.at ? new Date(body.at) : undefined);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/operator/remind',
      operationId: 'operatorRemindSigners',
      summary: 'Operator, outside production: runs the reminder sweep now, or as of `at` (a test clock)',
      tags: ['esign'],
      auth: ['operator'],
      body: z.object({ at: z.iso.datetime({ offset: true }).optional() }).strict(),
      response: z.object({ reminded: z.number().int(), expiry_notices: z.number().int(), failed: z.number().int(), retry_later: z.number().int() }),
      handler: async ({ body }) => {
        if (!s.testClocks) throw notFound('test clock');
        return s.envelopes.remindDue(body.at ? new Date(body.at) : undefined);
      },
    }),
  ];
}
