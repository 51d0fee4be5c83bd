import { credentialRequirementSchema } from '../../listings/domain/credential-requirements';
import { applicationCredentialCheckSchema } from '../../credential-checks/http/credential-check-schemas';
import { z } from 'zod';
import { isoDateTime, listOf } from '../../../platform/http/common-schemas';

const credential = z.object({ title: z.string(), issuer: z.string(), verified: z.boolean(), issued_at: z.string().meta({ example: '2021-06-30' }) });

export const submittedApplicationSchema = z
  .object({
    application_id: z.string().meta({ example: 'app_8hJk2LmN4pQr6StU8vWx' }),
    status: z.literal('submitted'),
    imported_skills: z.array(z.string()),
    imported_credentials: z.array(credential),
    experience_summary: z.object({
      total_years: z.number().meta({ example: 7.5 }),
      current_title: z.string().nullable(),
      current_company: z.string().nullable(),
    }),
    profile_url: z.string(),
  })
  .meta({
    id: 'SubmittedApplication',
    example: {
      application_id: 'app_8hJk2LmN4pQr6StU8vWx',
      status: 'submitted',
      imported_skills: ['TypeScript', 'PostgreSQL'],
      imported_credentials: [{ title: 'AWS Certified Developer', issuer: 'Amazon Web Services', verified: true, issued_at: '2023-04-01' }],
      experience_summary: { total_years: 7.5, current_title: 'Staff Engineer', current_company: 'Analytical Engines Ltd' },
      profile_url: 'https://profiles.example.com/usr_sbx7Ada2Lovelace',
    },
  });

/** A position of the candidate's work history, newest first; `verified` only where the provider states it. */
const position = z.object({
  title: z.string(),
  company: z.string(),
  start_date: z.string().meta({ example: '2019-03-01' }),
  end_date: z.string().nullable().meta({ description: 'null while the position is current' }),
  verified: z.boolean().optional(),
});

export const applicationSchema = submittedApplicationSchema
  .extend({
    object: z.literal('application'),
    work_history: z.array(position),
    listing_id: z.string(),
    profile_user_id: z.string(),
    candidate: z.object({ name: z.string(), headline: z.string().nullable() }),
    cover_letter: z.string().nullable(),
    answers: z.record(z.string(), z.union([z.number(), z.boolean(), z.string()])),
    source: z.string().nullable().meta({
      description:
        'The distribution channel of the tracked apply link the candidate came through (sourcing.distribute_jobs), `sourcing` for an invitation (sourcing.source_candidates); null when none',
    }),
    contact: z.object({ email: z.string(), phone: z.string().nullable() }).nullable().meta({
      description: "How to reach the candidate: the profile application's `contact` (email lower-cased) or a board applicant's; null when none was given",
    }),
    language: z.string().nullable().meta({
      description: 'The language the candidate applied in (a canonical BCP 47 tag, given with a profile application); null when none was given',
    }),
    duplicate_of: z.string().nullable().meta({
      description:
        'The earlier application to this listing with the same contact email (the same person applied through a job board and with their profile); null when none',
    }),
    created_at: isoDateTime,
    credential_check: applicationCredentialCheckSchema.nullable(),
  })
  .meta({ id: 'Application' });

export const applicationListSchema = listOf(applicationSchema);

export const publicListingSchema = z
  .object({
    id: z.string(),
    object: z.literal('listing'),
    title: z.string(),
    organization: z.object({ id: z.string(), name: z.string() }),
    questions: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        type: z.enum(['number', 'boolean', 'text', 'select']),
        required: z.boolean(),
        options: z.array(z.string()).optional(),
      }),
    ),
    requirements: z.array(credentialRequirementSchema).meta({ description: 'The credentials that will be checked, shown before consent' }),
    contact: z.object({
      email: z.enum(['required', 'optional']).meta({
        description: "`required` when the listing orders a background check when an application arrives (the vendor's invitation goes to the email)",
      }),
    }),
    profile_apply: z.object({ button_text: z.string(), theme: z.enum(['light', 'dark', 'auto']) }),
  })
  .meta({ id: 'PublicListing' });
