/** Mounted at /v1/sourcing (sourcing.source_candidates; docs/sourcing.md). */
import type { Principal } from '../../../platform/http/principal';
import { isoDateTime, listOf } from '../../../platform/http/common-schemas';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { RankedCandidate } from '../domain/candidate-ranking';
import type { Invitation } from '../domain/invitation';
import type { SourcingService } from '../domain/sourcing-service';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const profileUserId = z.string().regex(/^usr_[0-9A-Za-z_-]{1,64}$/, 'expected a profile user id: usr_ followed by an opaque id');
const terms = z
  .string()
  .max(1000)
  .transform((value) =>
    value
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().max(100)).max(20));

const searchQuery = z
  .object({
    skills: terms.optional().meta({ description: 'Comma-separated skills; each found among the verified skills scores 10' }),
    credentials: terms.optional().meta({
      description:
        "Comma-separated credential names (or parts); each found among the verified credentials (the application's credential check where it has one) scores 15",
    }),
    min_years: z.coerce.number().min(0).max(80).optional().meta({ description: 'At least this many years of experience' }),
    location: z.string().trim().min(1).max(200).optional().meta({ description: 'Part of the location the candidate gave (case-insensitive)' }),
    limit: z.coerce.number().int().min(1).max(100).default(20),
  })
  .strict();

const candidateSchema = z
  .object({
    object: z.literal('sourcing_candidate'),
    profile_user_id: z.string(),
    name: z.string(),
    headline: z.string().nullable(),
    location: z.string().nullable(),
    total_years: z.number(),
    score: z.number(),
    matched_skills: z.array(z.string()),
    matched_credentials: z.array(z.string()),
    credential_basis: z.enum(['credential_check', 'provider_flag']).meta({
      description:
        "What counted a credential as verified: the latest application's credential check (its listing's requirements met through a proof), or, for an application without one, the profile provider's verified flag",
    }),
    last_application: z.object({ application_id: z.string(), listing_id: z.string(), applied_at: isoDateTime }),
  })
  .meta({ id: 'SourcingCandidate' });

const invitationSchema = z
  .object({
    id: z.string(),
    object: z.literal('sourcing_invitation'),
    listing_id: z.string(),
    profile_user_id: z.string(),
    run_id: z.string().nullable(),
    status: z.enum(['sent', 'accepted', 'expired']),
    application_id: z.string().nullable(),
    created_at: isoDateTime,
    expires_at: isoDateTime,
    accepted_at: isoDateTime.nullable(),
  })
  .meta({ id: 'SourcingInvitation' });

const inviteBody = z
  .object({
    profile_user_id: profileUserId,
    listing_id: z.string().min(1).max(200),
    message: z.string().trim().min(1).max(2000).optional().meta({ description: 'A personal note placed above the link' }),
  })
  .strict();

const candidateView = (c: RankedCandidate): z.output<typeof candidateSchema> => ({
  object: 'sourcing_candidate',
  profile_user_id: c.profileUserId,
  name: c.name,
  headline: c.headline,
  location: c.location,
  total_years: c.totalYears,
  score: c.score,
  matched_skills: c.matchedSkills,
  matched_credentials: c.matchedCredentials,
  credential_basis: c.credentialBasis,
  last_application: { application_id: c.lastApplicationId, listing_id: c.lastListingId, applied_at: c.lastAppliedAt.toISOString() },
});

const invitationView = (i: Invitation, now: Date): z.output<typeof invitationSchema> => ({
  id: i.id,
  object: 'sourcing_invitation',
  listing_id: i.listingId,
  profile_user_id: i.profileUserId,
  run_id: i.runId,
  status: i.usedAt ? 'accepted' : i.expiresAt.getTime() <= now.getTime() ? 'expired' : 'sent',
  application_id: i.applicationId,
  created_at: i.createdAt.toISOString(),
  expires_at: i.expiresAt.toISOString(),
  accepted_at: i.usedAt?.toISOString() ?? null,
});

export function sourcingRoutes(sourcing: SourcingService, now: () => Date): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/candidates',
      operationId: 'searchSourcingCandidates',
      summary:
        'Talent rediscovery: past applicants who consented to be contacted again, by verified skills, verified credentials, years of experience and location, ranked (score documented in docs/sourcing.md)',
      tags: ['sourcing'],
      auth: ['organization'],
      // Reads candidates' records: audited.
      audit: 'read',
      query: searchQuery,
      response: listOf(candidateSchema),
      errors: [403],
      handler: async ({ principal, query }) => {
        const ranked = await sourcing.search(orgId(principal), {
          skills: query.skills ?? [],
          credentials: query.credentials ?? [],
          ...(query.min_years !== undefined ? { minYears: query.min_years } : {}),
          ...(query.location !== undefined ? { location: query.location } : {}),
          limit: query.limit,
        });
        return { object: 'list', data: ranked.map(candidateView), has_more: false, url: '/v1/sourcing/candidates' };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/candidates/:profile_user_id/consent',
      operationId: 'withdrawSourcingConsent',
      summary: 'The candidate withdrew their consent to be contacted again: they leave every search at once (404 when no consent stands)',
      tags: ['sourcing'],
      auth: ['organization'],
      params: z.object({ profile_user_id: z.string().max(100) }),
      response: z.object({ object: z.literal('sourcing_consent'), profile_user_id: z.string(), withdrawn: z.literal(true) }),
      handler: async ({ principal, params }) => {
        await sourcing.withdraw(orgId(principal), params.profile_user_id);
        return { object: 'sourcing_consent', profile_user_id: params.profile_user_id, withdrawn: true };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/invitations',
      operationId: 'createSourcingInvitation',
      summary:
        'Invites a candidate of the talent pool to apply to an open listing: an email (an action run) with the listing page\'s link carrying a signed, single-use source; the application that follows has source "sourcing"',
      tags: ['sourcing'],
      auth: ['organization'],
      idempotent: true,
      body: inviteBody,
      status: 201,
      response: invitationSchema,
      // license_required; no such listing or candidate in the pool; already_applied, listing_page_missing, connection_missing (email); listing_closed.
      errors: [403, 404, 409, 410],
      handler: async ({ principal, body }) => {
        const invitation = await sourcing.invite(orgId(principal), { profileUserId: body.profile_user_id, listingId: body.listing_id, message: body.message });
        return reply(201, invitationView(invitation, now()));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/invitations/:invitation_id',
      operationId: 'getSourcingInvitation',
      summary: 'One invitation: sent, accepted (with the application) or expired',
      tags: ['sourcing'],
      auth: ['organization'],
      params: z.object({ invitation_id: z.string().max(100) }),
      response: invitationSchema,
      handler: async ({ principal, params }) => invitationView(await sourcing.invitation(orgId(principal), params.invitation_id), now()),
    }),
  ];
}
