import { LISTING_ID_MAX_LENGTH } from '../../listings/domain/listing-id';
import type { ProfileApplication } from '../domain/application';
import type { ApplicationReader } from '../domain/application-reader';
import type { ApplicationCredentialCheck, ApplicationCredentialChecker } from '../domain/application-credential-check';
import type { Applicant, ApplyService } from '../domain/apply-service';
import { applicationView } from '../domain/pipeline-delivery';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import { isPhone, MAX_EMAIL_LENGTH, MAX_PHONE_LENGTH } from '../domain/application-contact';
import { canonicalLanguageTag, MAX_LANGUAGE_TAG_LENGTH } from '../domain/application-language';
import { applicationListSchema, applicationSchema, submittedApplicationSchema } from './application-schemas';

export const APPLY_PATH = '/listings/:listing_id/applications/profile';

const listingParams = z.object({ listing_id: z.string().max(LISTING_ID_MAX_LENGTH) });
// Applying to an id outside the documented rule is applying to no listing: 404 from the service, never a 400.
const applyParams = z.object({ listing_id: z.string() });

const applyBody = z
  .object({
    profile_user_id: z.string().regex(/^usr_[0-9A-Za-z_-]{1,64}$/, 'expected a profile user id: usr_ followed by an opaque id'),
    cover_letter: z.string().optional(),
    answers: z.record(z.string(), z.unknown()).optional(),
    source: z.string().max(200).optional().meta({
      description:
        'The `source` query parameter of a tracked apply link (sourcing.distribute_jobs) or of a sourcing invitation (sourcing.source_candidates), passed on as is; 400 source_invalid when it is not one of this listing (and candidate), 409 invitation_used, 410 invitation_expired',
    }),
    contact: z
      .object({
        email: z.email().max(MAX_EMAIL_LENGTH),
        phone: z
          .string()
          .trim()
          .max(MAX_PHONE_LENGTH)
          .refine(isPhone, 'expected a phone number: 7 to 15 digits, an optional leading +, spaces, dots, dashes or brackets')
          .optional(),
      })
      .strict()
      .optional()
      .meta({
        description:
          "How to reach the candidate (an extension of SPEC 4.1). Required (400 parameter_missing, param contact.email) when the listing orders a background check when an application arrives: the vendor's consent invitation goes to the email. The email is stored lower-cased",
      }),
    language: z
      .string()
      .max(MAX_LANGUAGE_TAG_LENGTH)
      .refine((tag) => canonicalLanguageTag(tag) !== undefined, 'expected a BCP 47 language tag such as en or pt-BR')
      .optional()
      .meta({
        description:
          'The language the candidate applied in (an extension of SPEC 4.1; the widget sends the one it renders in), a BCP 47 tag stored canonical. Messages to the candidate that have no other language use it: a credential expiry reminder, a sourcing invitation (en, es, fr, de, pt, ar; others read English)',
        example: 'es-MX',
      }),
    recontact_consent: z
      .object({
        consent: z.literal(true),
        email: z.email().max(254),
        location: z
          .string()
          .trim()
          .min(1)
          .max(200)
          .optional()
          .meta({ description: 'Where the candidate wants to work (city, region or "Remote"), searched by sourcing' }),
      })
      .strict()
      .optional()
      .meta({
        description:
          'The candidate ticked "You may contact me about other jobs": the organization may find them again (sourcing.source_candidates) and invite them by email. Withdrawn with DELETE /v1/sourcing/candidates/{profile_user_id}/consent or by erasure',
      }),
  })
  .strict()
  .meta({
    example: {
      profile_user_id: 'usr_sbx7Ada2Lovelace',
      cover_letter: 'I would love to join the team.',
      answers: { years_experience: 7, work_authorization: true },
    },
  });

const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(10),
    starting_after: z.string().max(100).optional(),
  })
  .strict();

function applicant(principal: Principal): Applicant {
  if (principal.kind === 'candidate') {
    return { organizationId: principal.organizationId, candidate: { listingId: principal.listingId, profileUserId: principal.profileUserId } };
  }
  return { organizationId: (principal as { organizationId: string }).organizationId };
}

/** The full record, for the organization's own reads. */
export function applicationDetail(application: ProfileApplication, credentialCheck: ApplicationCredentialCheck | null): z.output<typeof applicationSchema> {
  return {
    object: 'application',
    ...applicationView(application),
    work_history: application.workHistory,
    listing_id: application.listingId,
    profile_user_id: application.profileUserId,
    candidate: { name: application.candidateName, headline: application.candidateHeadline },
    cover_letter: application.coverLetter,
    answers: application.answers,
    source: application.source,
    contact: application.contact,
    duplicate_of: application.duplicateOf ?? null,
    language: application.language ?? null,
    created_at: application.createdAt.toISOString(),
    credential_check: credentialCheck,
  };
}

/** Mounted at /v1/opportunities. */
export function applicationRoutes(apply: ApplyService, reader: ApplicationReader, checks: ApplicationCredentialChecker): RouteDefinition<any, any, any>[] {
  // The check as it stands now: a document approved since the submission counts.
  const withChecks = async (organizationId: string, applications: ProfileApplication[]) => {
    const results = await checks.checkAll(organizationId, applications);
    return applications.map((a) => applicationDetail(a, results.get(a.id) ?? null));
  };
  return [
    defineRoute({
      method: 'post',
      path: APPLY_PATH,
      operationId: 'submitProfileApplication',
      summary: "Apply to a listing with the candidate's digital profile instead of a resume",
      tags: ['applications'],
      auth: ['organization', 'candidate'],
      idempotent: true,
      params: applyParams,
      body: applyBody,
      status: 201,
      response: submittedApplicationSchema,
      errors: [402, 403, 409, 410, 502, 503],
      handler: async ({ principal, params, body }) => {
        const application = await apply.submit(applicant(principal), params.listing_id, {
          profileUserId: body.profile_user_id,
          coverLetter: body.cover_letter,
          answers: body.answers,
          source: body.source,
          contact: body.contact,
          language: body.language === undefined ? undefined : canonicalLanguageTag(body.language),
          recontact: body.recontact_consent ? { email: body.recontact_consent.email, location: body.recontact_consent.location ?? null } : undefined,
        });
        return reply(201, applicationView(application) satisfies z.output<typeof submittedApplicationSchema>);
      },
      // The application was created but its 201 was lost (the answer failed, the process died).
      replayEffect: async (applicationId, { principal }) => reply(201, applicationView(await reader.get(applicant(principal).organizationId, applicationId))),
    }),
    defineRoute({
      method: 'get',
      path: '/applications/:application_id',
      operationId: 'getApplication',
      // A candidate's full record: who read it is audited.
      audit: 'read',
      summary: 'One application of the calling organization',
      tags: ['applications'],
      auth: ['organization'],
      params: z.object({ application_id: z.string().max(100) }),
      response: applicationSchema,
      handler: async ({ principal, params }) => {
        const organizationId = applicant(principal).organizationId;
        const [detail] = await withChecks(organizationId, [await reader.get(organizationId, params.application_id)]);
        return detail;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/listings/:listing_id/applications',
      operationId: 'listListingApplications',
      summary: "A listing's applications, newest first (cursor pagination: limit, starting_after)",
      tags: ['applications'],
      auth: ['organization'],
      params: listingParams,
      query: listQuery,
      response: applicationListSchema,
      handler: async ({ principal, params, query }) => {
        const organizationId = applicant(principal).organizationId;
        const page = await reader.listForListing(organizationId, params.listing_id, {
          limit: query.limit,
          startingAfter: query.starting_after,
        });
        return {
          object: 'list',
          data: await withChecks(organizationId, page.data),
          has_more: page.hasMore,
          url: `/v1/opportunities/listings/${params.listing_id}/applications`,
        };
      },
    }),
  ];
}
