/**
 * Mounted at /v1/listings: the host's listings managed by the organization's ATS (create,
 * read, update, close, reopen, list, upsert by external_id). Only hosts that offer a
 * ListingsManager (the standalone host) have these routes.
 */
import type { Listing } from '../domain/listing';
import type { ListingFields, ListingsManager } from '../domain/listing-management';
import { questionsSchema } from '../domain/questions';
import type { ListingQuestion } from '../domain/listing';
import { conflict, notFound } from '../../../kernel/errors';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import { listingListSchema, listingSchema } from './listing-schemas';
import { credentialRequirementsSchema, type CredentialRequirement, type ListingRequirementsStore } from '../domain/credential-requirements';
import { backgroundCheckPolicySchema, type BackgroundCheckPolicy, type ListingBackgroundCheckPolicies } from '../domain/background-check-policy';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

/** A listing without its requirements (those live in the plugin's store, see withRequirements). */
export function listingView(listing: Listing): Omit<z.output<typeof listingSchema>, 'requirements' | 'background_check'> {
  return {
    id: listing.id,
    object: 'listing',
    external_id: listing.externalId ?? null,
    title: listing.title,
    description: listing.description ?? null,
    location: listing.location ?? null,
    status: listing.status,
    questions: listing.questions,
    created_at: listing.createdAt?.toISOString() ?? null,
    updated_at: listing.updatedAt?.toISOString() ?? null,
  };
}

const externalId = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
  // URLs normalize `.` and `..` away, so PUT/GET /v1/listings/external/{id} could never address them.
  .refine((id) => id !== '.' && id !== '..', 'must not be "." or ".." (a URL cannot address them)');
const title = z.string().trim().min(1, 'title must not be empty').max(300);
const fields = {
  description: z.string().max(20_000).nullable().optional(),
  location: z.string().max(300).nullable().optional(),
  questions: questionsSchema.optional(),
  status: z.enum(['open', 'closed']).optional(),
  requirements: credentialRequirementsSchema.optional(),
  background_check: backgroundCheckPolicySchema.nullable().optional(),
};

const createBody = z.object({ title, external_id: externalId.optional(), ...fields }).strict();
const upsertBody = z.object({ title, ...fields }).strict();
const updateBody = z.object({ title: title.optional(), external_id: externalId.nullable().optional(), ...fields }).strict();
const idParams = z.object({ listing_id: z.string().max(100) });

const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(10),
    starting_after: z.string().max(100).optional(),
    status: z.enum(['open', 'closed']).optional(),
    external_id: externalId.optional(),
  })
  .strict();

const toFields = (body: z.infer<typeof upsertBody>): ListingFields => ({
  title: body.title,
  description: body.description,
  location: body.location,
  questions: body.questions as ListingQuestion[] | undefined,
  status: body.status,
});

export function listingRoutes(
  listings: ListingsManager,
  requirementsStore: ListingRequirementsStore,
  policies: ListingBackgroundCheckPolicies,
): RouteDefinition<any, any, any>[] {
  // Requirements and the background-check policy are validated with the body, so a listing is never written with ones that cannot be.
  const withRequirements = async (listing: Listing, replace?: CredentialRequirement[], policy?: BackgroundCheckPolicy | null) => {
    if (replace !== undefined) await requirementsStore.put(listing.organizationId, listing.id, replace);
    if (policy !== undefined) await policies.put(listing.organizationId, listing.id, policy);
    return {
      ...listingView(listing),
      requirements: replace ?? (await requirementsStore.get(listing.organizationId, listing.id)),
      background_check: policy !== undefined ? policy : await policies.get(listing.organizationId, listing.id),
    };
  };
  const found = async (organizationId: string, listingId: string) => {
    const listing = await listings.find(organizationId, listingId);
    if (!listing) throw notFound('listing', listingId);
    return listing;
  };
  const setStatus = async (organizationId: string, listingId: string, status: 'open' | 'closed') => {
    await found(organizationId, listingId);
    return withRequirements((await listings.update(organizationId, listingId, { status }))!);
  };
  return [
    defineRoute({
      method: 'post',
      path: '/',
      operationId: 'createListing',
      summary: 'Create a listing (409 listing_exists when external_id is taken: use PUT /v1/listings/external/{external_id})',
      tags: ['listings'],
      auth: ['organization'],
      idempotent: true,
      body: createBody,
      status: 201,
      response: listingSchema,
      handler: async ({ principal, body }) => {
        if (body.external_id) {
          const existing = await listings.list(orgId(principal), { limit: 1, externalId: body.external_id });
          if (existing.data[0]) {
            throw conflict('listing_exists', `A listing with external_id '${body.external_id}' exists: ${existing.data[0].id}`, {
              param: 'external_id',
              listing_id: existing.data[0].id,
            });
          }
        }
        const listing = await listings.create(orgId(principal), { ...toFields(body), externalId: body.external_id ?? null });
        return reply(201, await withRequirements(listing, body.requirements ?? [], body.background_check ?? null));
      },
    }),
    defineRoute({
      method: 'put',
      path: '/external/:external_id',
      operationId: 'upsertListingByExternalId',
      summary: 'Create or replace the listing the ATS knows by its own id (idempotent; 201 when created, 200 when updated)',
      tags: ['listings'],
      auth: ['organization'],
      params: z.object({ external_id: externalId }),
      body: upsertBody,
      alsoAnswers: [201],
      response: listingSchema,
      handler: async ({ principal, params, body }) => {
        const { listing, created } = await listings.upsertByExternalId(orgId(principal), params.external_id, toFields(body));
        return reply(created ? 201 : 200, await withRequirements(listing, body.requirements ?? [], body.background_check ?? null));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listListings',
      summary: "The organization's listings, newest first (cursor pagination: limit, starting_after; filters status, external_id)",
      tags: ['listings'],
      auth: ['organization'],
      query: listQuery,
      response: listingListSchema,
      handler: async ({ principal, query }) => {
        const page = await listings.list(orgId(principal), {
          limit: query.limit,
          startingAfter: query.starting_after,
          status: query.status,
          externalId: query.external_id,
        });
        const requirements = await requirementsStore.getMany(
          orgId(principal),
          page.data.map((l) => l.id),
        );
        const backgroundChecks = await policies.getMany(
          orgId(principal),
          page.data.map((l) => l.id),
        );
        const data = page.data.map((l) => ({
          ...listingView(l),
          requirements: requirements.get(l.id) ?? [],
          background_check: backgroundChecks.get(l.id) ?? null,
        }));
        return { object: 'list', data, has_more: page.hasMore, url: '/v1/listings' } satisfies z.output<typeof listingListSchema>;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:listing_id',
      operationId: 'getListing',
      summary: 'One listing',
      tags: ['listings'],
      auth: ['organization'],
      params: idParams,
      response: listingSchema,
      handler: async ({ principal, params }) => withRequirements(await found(orgId(principal), params.listing_id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/:listing_id',
      operationId: 'updateListing',
      summary: 'Change title, description, location, questions, requirements, status or external_id; applications already submitted keep their answers',
      tags: ['listings'],
      auth: ['organization'],
      params: idParams,
      body: updateBody,
      response: listingSchema,
      errors: [409],
      handler: async ({ principal, params, body }) => {
        await found(orgId(principal), params.listing_id);
        if (body.external_id) {
          const existing = await listings.list(orgId(principal), { limit: 1, externalId: body.external_id });
          if (existing.data[0] && existing.data[0].id !== params.listing_id) {
            throw conflict('listing_exists', `A listing with external_id '${body.external_id}' exists: ${existing.data[0].id}`, {
              param: 'external_id',
              listing_id: existing.data[0].id,
            });
          }
        }
        const updated = await listings.update(orgId(principal), params.listing_id, {
          ...(body.title !== undefined ? { title: body.title } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.location !== undefined ? { location: body.location } : {}),
          ...(body.questions !== undefined ? { questions: body.questions as ListingQuestion[] } : {}),
          ...(body.status !== undefined ? { status: body.status } : {}),
          ...(body.external_id !== undefined ? { externalId: body.external_id } : {}),
        });
        return withRequirements(updated!, body.requirements, body.background_check);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/:listing_id/close',
      operationId: 'closeListing',
      summary: 'Close the listing: applications answer 410 listing_closed and the public listing disappears (idempotent)',
      tags: ['listings'],
      auth: ['organization'],
      params: idParams,
      response: listingSchema,
      handler: async ({ principal, params }) => setStatus(orgId(principal), params.listing_id, 'closed'),
    }),
    defineRoute({
      method: 'post',
      path: '/:listing_id/reopen',
      operationId: 'reopenListing',
      summary: 'Open the listing again (idempotent)',
      tags: ['listings'],
      auth: ['organization'],
      params: idParams,
      response: listingSchema,
      handler: async ({ principal, params }) => setStatus(orgId(principal), params.listing_id, 'open'),
    }),
  ];
}
