import type { ProfileApplication } from '../../domain/applications/application';
import type { ApplicationReader } from '../../domain/applications/application-reader';
import type { Applicant, ApplyService } from '../../domain/applications/apply-service';
import { applicationView } from '../../domain/applications/pipeline-delivery';
import type { Principal } from '../principal';
import { defineRoute, reply, z, type RouteDefinition } from '../route';

export const APPLY_PATH = '/listings/:listing_id/applications/profile';

const listingParams = z.object({ listing_id: z.string().max(100) });

const applyBody = z
  .object({
    profile_user_id: z.string().regex(/^usr_[0-9A-Za-z_-]{1,64}$/, 'expected a profile user id: usr_ followed by an opaque id'),
    cover_letter: z.string().optional(),
    answers: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

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
export function applicationDetail(application: ProfileApplication) {
  return {
    object: 'application',
    ...applicationView(application),
    listing_id: application.listingId,
    profile_user_id: application.profileUserId,
    candidate: { name: application.candidateName, headline: application.candidateHeadline },
    cover_letter: application.coverLetter,
    answers: application.answers,
    created_at: application.createdAt.toISOString(),
  };
}

/** Mounted at /v1/opportunities. */
export function applicationRoutes(apply: ApplyService, reader: ApplicationReader): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: APPLY_PATH,
      operationId: 'submitProfileApplication',
      summary: "Apply to a listing with the candidate's digital profile instead of a resume",
      tags: ['applications'],
      auth: ['organization', 'candidate'],
      idempotent: true,
      params: listingParams,
      body: applyBody,
      handler: async ({ principal, params, body }) => {
        const application = await apply.submit(applicant(principal), params.listing_id, {
          profileUserId: body.profile_user_id,
          coverLetter: body.cover_letter,
          answers: body.answers,
        });
        return reply(201, applicationView(application));
      },
      // The application was created but its 201 was lost (the answer failed, the process died).
      replayEffect: async (applicationId, { principal }) => reply(201, applicationView(await reader.get(applicant(principal).organizationId, applicationId))),
    }),
    defineRoute({
      method: 'get',
      path: '/applications/:application_id',
      operationId: 'getApplication',
      summary: 'One application of the calling organization',
      tags: ['applications'],
      auth: ['organization'],
      params: z.object({ application_id: z.string().max(100) }),
      handler: async ({ principal, params }) => applicationDetail(await reader.get(applicant(principal).organizationId, params.application_id)),
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
      handler: async ({ principal, params, query }) => {
        const page = await reader.listForListing(applicant(principal).organizationId, params.listing_id, { limit: query.limit, startingAfter: query.starting_after });
        return { object: 'list', data: page.data.map(applicationDetail), has_more: page.hasMore, url: `/v1/opportunities/listings/${params.listing_id}/applications` };
      },
    }),
  ];
}
