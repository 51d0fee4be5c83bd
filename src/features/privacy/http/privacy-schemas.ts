/** Response shapes of the candidates' data-rights API (they feed /v1/openapi.json). */
import { z } from 'zod';
import { isoDateTime, listOf, nullableDateTime } from '../../../platform/http/common-schemas';

export const profileUserId = z.string().regex(/^usr_[0-9A-Za-z_-]{1,64}$/, 'expected a profile user id: usr_ followed by an opaque id');

const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, 'expected an E.164 number such as +14155550123');

/** Contacts the host knows the candidate by: stores filled from hooks (reminders, messages) are matched on them. */
export const subjectBody = z
  .object({
    emails: z.array(z.email().max(320)).max(20).default([]),
    phones: z.array(e164).max(20).default([]),
  })
  .strict();

export const exportSchema = z
  .object({
    id: z.string().meta({ example: 'cex_4Yb1v0dM3bq8Wm2Zt6Qa' }),
    object: z.literal('candidate_export'),
    profile_user_id: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    failure_reason: z.string().nullable(),
    stores_covered: z.array(z.string()).nullable().meta({ description: 'Once succeeded: every registered store the export read' }),
    record_count: z.number().int().nullable(),
    download_url: z
      .string()
      .nullable()
      .meta({ description: 'Once succeeded: a signed link (no API key needed) valid for 15 minutes; append &format=html for the readable view' }),
    download_url_expires_at: nullableDateTime,
    created_at: isoDateTime,
    completed_at: nullableDateTime,
    expires_at: isoDateTime.meta({ description: 'The export is deleted then (7 days after it was requested)' }),
  })
  .meta({ id: 'CandidateExport' });

export const exportDocumentSchema = z
  .object({
    format: z.literal('hiring-integrations.candidate-export.v1'),
    organization_id: z.string(),
    profile_user_id: z.string(),
    generated_at: isoDateTime,
    completeness: z.object({ stores_covered: z.array(z.string()), record_count: z.number().int() }),
    stores: z.array(z.object({ name: z.string(), description: z.string(), records: z.array(z.record(z.string(), z.unknown())) })),
  })
  .meta({ id: 'CandidateExportDocument' });

export const erasureSchema = z
  .object({
    id: z.string().meta({ example: 'cer_8Qw2Lm4Nx7Rt1Vb5Yc3Z' }),
    object: z.literal('candidate_erasure'),
    status: z.enum(['pending', 'succeeded']),
    reason: z.enum(['request', 'retention']).meta({ description: 'request: the organization asked; retention: the daily retention pass found the data due' }),
    stores: z.record(z.string(), z.number().int()).meta({ description: 'Rows erased per store, for the stores done so far' }),
    last_error: z.string().nullable().meta({ description: 'Why the last attempt stopped (the job retries and resumes)' }),
    created_at: isoDateTime,
    completed_at: nullableDateTime,
  })
  .meta({ id: 'CandidateErasure' });

export const legalHoldSchema = z
  .object({
    id: z.string().meta({ example: 'hold_2Kc9Pz6Wm1Qx4Tn8Lb7R' }),
    object: z.literal('legal_hold'),
    profile_user_id: z.string(),
    reason: z.string(),
    active: z.boolean(),
    created_at: isoDateTime,
    released_at: nullableDateTime,
  })
  .meta({ id: 'LegalHold' });

export const legalHoldListSchema = listOf(legalHoldSchema);

export const candidateHireSchema = z
  .object({
    id: z.string().meta({ example: 'hire_7Hc2Pq9Wm4Zx1Tn5Lb3R' }),
    object: z.literal('candidate_hire'),
    profile_user_id: z.string(),
    application_id: z.string(),
    listing_id: z.string(),
    hired_at: isoDateTime,
    created_at: isoDateTime,
  })
  .meta({ id: 'CandidateHire' });

export const consentSchema = z
  .object({
    id: z.string().meta({ example: 'cns_7Hd2Qp9Xw4Lm1Zr8Tb6N' }),
    object: z.literal('consent'),
    profile_user_id: z.string(),
    organization_name: z.string(),
    listing_id: z.string(),
    listing_title: z.string(),
    scopes: z.array(z.string()).meta({ description: "Granted (the provider's token answer), else those requested" }),
    statement: z.string().meta({ description: 'What the candidate agreed to, in words: the request the consent answered' }),
    granted_at: isoDateTime,
    revoked_at: nullableDateTime,
    revoked_reason: z
      .enum(['revoked_at_provider', 'superseded'])
      .nullable()
      .meta({ description: 'revoked_at_provider: a token refresh answered invalid_grant; superseded: the candidate authorized again' }),
  })
  .meta({ id: 'Consent' });

export const consentListSchema = listOf(consentSchema);

export const dataStoresSchema = z
  .object({
    object: z.literal('candidate_data_registry'),
    stores: z.array(z.object({ name: z.string(), description: z.string(), tables: z.array(z.string()) })).meta({
      description: 'Every store of candidate data, in the order export and erasure walk them',
    }),
    tables_without_candidate_data: z.array(z.object({ table: z.string(), reason: z.string() })),
  })
  .meta({ id: 'CandidateDataRegistry' });
