import { isListingId } from '../../listings/domain/listing-id';
import type { ProfileApplyAvailability } from '../domain/profile-apply-availability';
import type { ListingsDirectory } from '../../listings/domain/listing';
import type { ListingRequirementsStore } from '../../listings/domain/credential-requirements';
import type { ListingBackgroundCheckPolicies } from '../../listings/domain/background-check-policy';
import type { OrganizationRepository } from '../../organizations/domain/ports';
import { notFound } from '../../../kernel/errors';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import { publicListingSchema } from './application-schemas';

export const PUBLIC_LISTING_PATH = '/organizations/:organization_id/listings/:listing_id';

// Any listing id is accepted here: one outside the documented rule is simply not a listing (404 below), never a 400.
const params = z.object({ organization_id: z.string().max(100), listing_id: z.string() });

/** Mounted at /v1/public: what the widget may read without credentials. */
export function publicListingRoutes(deps: {
  listings: ListingsDirectory;
  availability: ProfileApplyAvailability;
  organizations: OrganizationRepository;
  requirements: ListingRequirementsStore;
  backgroundChecks: ListingBackgroundCheckPolicies;
}): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: PUBLIC_LISTING_PATH,
      operationId: 'getPublicListing',
      summary:
        'A listing as the apply widget shows it: title, questions, the credentials that will be checked, button (open listings of organizations that take profile applications)',
      tags: ['widget'],
      auth: [],
      params,
      response: publicListingSchema,
      // 402 payment_required: the listing is open but its organization is suspended for non-payment.
      errors: [402],
      handler: async ({ params: p }): Promise<z.output<typeof publicListingSchema>> => {
        // One answer for every reason a listing is not shown: nothing to probe.
        const missing = () => notFound('listing', isListingId(p.listing_id) ? p.listing_id : undefined);
        if (!isListingId(p.listing_id)) throw missing();
        const availability = await deps.availability.check(p.organization_id);
        if (!availability.accepting && availability.reason.code !== 'payment_required') throw missing();
        const listing = await deps.listings.get(p.listing_id);
        if (!listing || listing.organizationId !== p.organization_id || listing.status !== 'open') throw missing();
        // Suspended for non-payment: 402 for an open listing, so the widget can say applications are paused.
        if (!availability.accepting) throw availability.reason;
        const { settings } = availability;
        const organization = await deps.organizations.findById(p.organization_id);
        if (!organization) throw missing();
        return {
          id: listing.id,
          object: 'listing',
          title: listing.title,
          organization: { id: organization.id, name: organization.name },
          questions: listing.questions.map((q) => ({
            key: q.key,
            label: q.label,
            type: q.type,
            required: q.required,
            ...(q.options ? { options: q.options } : {}),
          })),
          // Told before consent: what the organization will check of the imported credentials.
          requirements: (await deps.requirements.get(listing.organizationId, listing.id)).map((r) => ({
            key: r.key,
            label: r.label,
            credential_type: r.credential_type,
            issuers: r.issuers,
            min_validity_days: r.min_validity_days,
            verified_source_required: r.verified_source_required,
          })),
          // A listing that orders a background check needs an email for the vendor's invitation.
          contact: { email: (await deps.backgroundChecks.get(listing.organizationId, listing.id)) ? 'required' : 'optional' },
          profile_apply: { button_text: settings.buttonText, theme: settings.theme },
        };
      },
    }),
  ];
}
