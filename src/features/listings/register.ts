/** The listings API, for hosts that let the plugin manage their listings (the standalone host); the requirements store, for every host. */
import { instanceCachingFactory } from 'tsyringe';
import { LISTINGS_MANAGER, type ListingsManager } from './domain/listing-management';
import { LISTING_REQUIREMENTS_STORE, type ListingRequirementsStore } from './domain/credential-requirements';
import { LISTING_BACKGROUND_CHECK_POLICIES, type ListingBackgroundCheckPolicies } from './domain/background-check-policy';
import { listingRoutes } from './http/listings-router';
import { KnexListingBackgroundChecks } from './storage/knex-listing-background-checks';
import { KnexListingRequirements } from './storage/knex-listing-requirements';
import { noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import type { PluginModule } from '../../platform/composition/plugin-module';
import { CLOCK, type Clock } from '../../kernel/clock';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';

export const listingsModule: PluginModule = {
  name: 'listings',
  register(container, { host }) {
    if (host.managedListings) container.register<ListingsManager>(LISTINGS_MANAGER, { useValue: host.managedListings });
    registerCandidateData(container, noCandidateData('hi_listing_requirements', "What an organization's listings require of applicants' credentials"));
    registerCandidateData(
      container,
      noCandidateData(
        'hi_listing_background_checks',
        "The background check an organization's listings order when an application arrives (package, work location)",
      ),
    );
    container.register<ListingBackgroundCheckPolicies>(LISTING_BACKGROUND_CHECK_POLICIES, {
      useFactory: instanceCachingFactory((c) => new KnexListingBackgroundChecks(c.resolve<Database>(DATABASE), () => c.resolve<Clock>(CLOCK))),
    });
    container.register<ListingRequirementsStore>(LISTING_REQUIREMENTS_STORE, {
      useFactory: instanceCachingFactory((c) => new KnexListingRequirements(c.resolve<Database>(DATABASE), () => c.resolve<Clock>(CLOCK))),
    });
  },
  routers: [
    {
      name: 'listings',
      // Without a manager the router has no routes: /v1/listings is then 404 like any unknown path.
      create: (container, kit) =>
        kit.build(
          'listings',
          container.isRegistered(LISTINGS_MANAGER)
            ? listingRoutes(
                container.resolve<ListingsManager>(LISTINGS_MANAGER),
                container.resolve<ListingRequirementsStore>(LISTING_REQUIREMENTS_STORE),
                container.resolve<ListingBackgroundCheckPolicies>(LISTING_BACKGROUND_CHECK_POLICIES),
              )
            : [],
        ),
    },
  ],
};
