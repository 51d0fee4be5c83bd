/**
 * `offer.created` → esign.send_offer, `agreement.requested` → esign.send_agreement: the host
 * fires the hook, the plugin makes the envelope from the organization's template and sends
 * the signer the link. The host's id is the idempotency key: a hook fired twice is one
 * envelope, one email.
 */
import { inject } from 'tsyringe';
import { z } from 'zod';
import { hostId, offerCreated, person } from '../../hooks/domain/payloads';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import { Envelopes } from './envelopes';
import { SEND_AGREEMENT_ACTION, SEND_OFFER_ACTION } from './envelope';

const value = z.string().max(500);
const extraValues = {
  template_id: z.string().max(100).optional(),
  expires_in_days: z.number().int().min(1).max(90).optional(),
  values: z
    .record(z.string().regex(/^fields\.[a-z][a-z0-9_]{0,39}$/), value)
    .refine((v) => Object.keys(v).length <= 50, 'at most 50 values')
    .optional(),
};

/** offer.created as the handler reads it: the base payload, plus what fills an offer letter. */
export const offerForSignature = offerCreated.extend({
  job_title: value.optional(),
  salary: value.optional(),
  currency: z.string().max(10).optional(),
  start_date: z.string().max(40).optional(),
  ...extraValues,
});

export const agreementRequested = z.object({
  agreement_id: hostId,
  candidate: person.extend({ email: z.email().max(320) }),
  title: z.string().min(1).max(200).default('Agreement'),
  ...extraValues,
});

/** The signer as an envelope takes it from a hook's person. */
const signerOf = (p: { name: string; email: string; phone?: string | undefined; language?: string | undefined }) => ({
  name: p.name,
  email: p.email,
  ...(p.phone ? { phone: p.phone } : {}),
  ...(p.language ? { language: p.language } : {}),
});

@HookHandlerFor({
  name: 'esign-offer',
  hook: 'offer.created',
  action: SEND_OFFER_ACTION,
  steps: ['email'],
  description: 'Makes the offer letter from the organization’s template (PDF), emails the candidate a signing link and publishes offer.sent_for_signature',
})
export class ESignOfferHandler implements GatedHookHandler {
  constructor(@inject(Envelopes) private readonly envelopes: Envelopes) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const offer = parsePayload(offerForSignature, payload);
    const offerValues: Record<string, string> = {
      ...(offer.values ?? {}),
      ...(offer.job_title !== undefined ? { 'offer.job_title': offer.job_title } : {}),
      ...(offer.salary !== undefined ? { 'offer.salary': offer.salary } : {}),
      ...(offer.currency !== undefined ? { 'offer.currency': offer.currency } : {}),
      ...(offer.start_date !== undefined ? { 'offer.start_date': offer.start_date } : {}),
    };
    const envelope = await this.envelopes.create(organizationId, {
      kind: 'offer',
      referenceId: offer.offer_id,
      sourceKey: `offer-${offer.offer_id}`,
      title: offer.title,
      signer: signerOf(offer.candidate),
      values: offerValues,
      ...(offer.template_id ? { templateId: offer.template_id } : {}),
      ...(offer.expires_in_days ? { expiresInDays: offer.expires_in_days } : {}),
    });
    return { offer_id: offer.offer_id, envelope_id: envelope.id, status: envelope.status };
  }
}

@HookHandlerFor({
  name: 'esign-agreement',
  hook: 'agreement.requested',
  action: SEND_AGREEMENT_ACTION,
  steps: ['email'],
  description: 'Makes the agreement from the organization’s template (PDF), emails the signer a signing link and publishes agreement.sent_for_signature',
})
export class ESignAgreementHandler implements GatedHookHandler {
  constructor(@inject(Envelopes) private readonly envelopes: Envelopes) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const agreement = parsePayload(agreementRequested, payload);
    const envelope = await this.envelopes.create(organizationId, {
      kind: 'agreement',
      referenceId: agreement.agreement_id,
      sourceKey: `agreement-${agreement.agreement_id}`,
      title: agreement.title,
      signer: signerOf(agreement.candidate),
      values: agreement.values ?? {},
      ...(agreement.template_id ? { templateId: agreement.template_id } : {}),
      ...(agreement.expires_in_days ? { expiresInDays: agreement.expires_in_days } : {}),
    });
    return { agreement_id: agreement.agreement_id, envelope_id: envelope.id, status: envelope.status };
  }
}
