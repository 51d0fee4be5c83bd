/** The listings API, for hosts that let the plugin manage their listings (the standalone host). */
import { LISTINGS_MANAGER, type ListingsManager } from './domain/listing-management';
import { listingRoutes } from './http/listings-router';
import type { PluginModule } from '../../platform/composition/plugin-module';

export const listingsModule: PluginModule = {
  name: 'listings',
  register(container, { host }) {
    if (host.managedListings) container.register<ListingsManager>(LISTINGS_MANAGER, { useValue: host.managedListings });
  },
  routers: [
    {
      name: 'listings',
      // Without a manager the router has no routes: /v1/listings is then 404 like any unknown path.
      create: (container, kit) =>
        kit.build('listings', container.isRegistered(LISTINGS_MANAGER) ? listingRoutes(container.resolve<ListingsManager>(LISTINGS_MANAGER)) : []),
    },
  ],
};
