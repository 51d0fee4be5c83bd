/**
 * Integration licenses: the action catalog, packages, licenses and subscriptions, their
 * provisioning queue and provisioners, the billing preview, and the entitlement question
 * (ENTITLEMENTS) other areas ask.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { CATALOG_REPOSITORY } from './domain/catalog';
import { CatalogService } from './domain/catalog-service';
import { PACKAGE_REPOSITORY } from './domain/package';
import { PackageService } from './domain/package-service';
import { HOOK_REGISTRY, type HookRegistry } from '../hooks/domain/hook-registry';
import { ENTITLEMENTS } from './domain/entitlements';
import { BUILT_IN_ACTION_STEPS, BUILT_IN_ACTIONS, RUNNABLE_ACTIONS, runnableActions } from './domain/runnable-actions';
import { LicenseChanges } from './domain/license-changes';
import { LicenseProvisioning } from './domain/license-provisioning';
import { LicenseService } from './domain/license-service';
import { LICENSE_REPOSITORY, SUBSCRIPTION_REPOSITORY } from './domain/ports';
import { PROVISIONER_DIRECTORY } from './domain/provisioner';
import { SubscriptionService } from './domain/subscription-service';
import { BillingPreviewService } from '../billing/domain/billing-preview-service';
import { BillingCheckout } from '../billing/domain/billing-checkout';
import { BillingService } from '../billing/domain/billing-service';
import { BillingQuotes } from '../billing/domain/billing-quotes';
import { integrationsRoutes } from './http/integrations-router';
import { MappedProvisionerDirectory } from './domain/provisioner-directory';
import { SandboxProvisioner } from '../../connectors/sandbox/sandbox-provisioner';
import { SandboxProvisioningFaults } from '../../connectors/sandbox/sandbox-provisioning-faults';
import { KnexCatalogRepository } from './storage/catalog-repository';
import type { Database } from '../../platform/database/database';
import { KnexLicenseRepository } from './storage/license-repository';
import { KnexPackageRepository } from './storage/package-repository';
import { KnexSubscriptionRepository } from './storage/subscription-repository';
import { DATABASE } from '../../platform/database/tokens';
import { LicenseProvisioningProcessor } from './jobs/license-provisioning';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { ConnectorResolver } from '../connections/domain/connector-resolver';
import { CONNECTOR_RESOLVER } from '../connections/register';

/** What the modules declared in `builtInActions` (plugin.ts collects them). */
const builtInActionsOf = (c: DependencyContainer): ReadonlySet<string> =>
  c.isRegistered(BUILT_IN_ACTIONS) ? c.resolve<ReadonlySet<string>>(BUILT_IN_ACTIONS) : new Set<string>();

/** The connector kinds a built-in action needs (PluginModule.builtInActionSteps; none declared: none). */
const builtInStepsOf =
  (c: DependencyContainer) =>
  (actionKey: string): readonly string[] =>
    (c.isRegistered(BUILT_IN_ACTION_STEPS) ? c.resolve<ReadonlyMap<string, readonly string[]>>(BUILT_IN_ACTION_STEPS).get(actionKey) : undefined) ?? [];

export const licensingModule: PluginModule = {
  name: 'licensing',
  register(container, { config }) {
    container.registerSingleton(CATALOG_REPOSITORY, KnexCatalogRepository);
    container.registerSingleton(PACKAGE_REPOSITORY, KnexPackageRepository);
    container.registerSingleton(LICENSE_REPOSITORY, KnexLicenseRepository);
    container.registerSingleton(SUBSCRIPTION_REPOSITORY, KnexSubscriptionRepository);

    // Failure plans are a rehearsal tool: production never reads them.
    const production = config.env === 'production';
    container.register(PROVISIONER_DIRECTORY, {
      useFactory: instanceCachingFactory((c) => {
        const db = c.resolve<Database>(DATABASE);
        const sandbox = new SandboxProvisioner(db, production ? undefined : new SandboxProvisioningFaults(db));
        // Groups get their own provisioner here as real integrations are written.
        return new MappedProvisionerDirectory(new Map(), sandbox);
      }),
    });

    // No selling air: what the hook handlers registered (read when asked: the registry is built after this module).
    container.register(RUNNABLE_ACTIONS, {
      useFactory: instanceCachingFactory((c) => {
        const registry = () => (c.isRegistered(HOOK_REGISTRY) ? c.resolve<HookRegistry>(HOOK_REGISTRY) : undefined);
        return runnableActions(
          builtInActionsOf(c),
          () => registry()?.handledActions() ?? new Set<string>(),
          (action) => [...(registry()?.handlersFor(action) ?? []).flatMap((h) => h.steps), ...builtInStepsOf(c)(action)],
          async (organizationId) =>
            c.isRegistered(CONNECTOR_RESOLVER) ? c.resolve<ConnectorResolver>(CONNECTOR_RESOLVER).availableKinds(organizationId) : new Set<string>(),
        );
      }),
    });
    container.registerSingleton(CatalogService);
    container.registerSingleton(PackageService);
    container.registerSingleton(LicenseChanges);
    container.registerSingleton(LicenseService);
    container.register(ENTITLEMENTS, { useToken: LicenseService });
    container.registerSingleton(SubscriptionService);
    container.registerSingleton(LicenseProvisioning);
    container.registerSingleton(BillingPreviewService);
  },
  routers: [
    {
      name: 'integrations',
      create: (container, kit) =>
        kit.build(
          'integrations',
          integrationsRoutes({
            catalog: container.resolve(CatalogService),
            packages: container.resolve(PackageService),
            licenses: container.resolve(LicenseService),
            subscriptions: container.resolve(SubscriptionService),
            billing: container.resolve(BillingPreviewService),
            checkout: container.resolve(BillingCheckout),
            quotes: container.resolve(BillingQuotes),
            ledger: container.resolve(BillingService),
            // The catalog shows which actions have a hook handler here (hooks module, issue 5).
            builtInActions: builtInActionsOf(container),
            builtInStepsOf: builtInStepsOf(container),
            hookHandlersOf: container.isRegistered(HOOK_REGISTRY) ? (action) => container.resolve<HookRegistry>(HOOK_REGISTRY).handlersFor(action) : undefined,
            // Per organization: which connector kinds resolve (its verified connections, the host's, the defaults).
            availableKinds: container.isRegistered(CONNECTOR_RESOLVER)
              ? (organizationId) => container.resolve<ConnectorResolver>(CONNECTOR_RESOLVER).availableKinds(organizationId)
              : undefined,
          }),
        ),
    },
  ],
  processors: (container: DependencyContainer) => [container.resolve(LicenseProvisioningProcessor)],
  async start(container, { logger }) {
    // In the background: licenses waiting for a connection that a deployment default or a host connector now provides.
    void container
      .resolve(LicenseService)
      .reviewAwaitingConnection()
      .then((moved) => moved > 0 && logger.info({ moved }, 'licenses waiting for a connection can run now: provisioning'))
      .catch((error: Error) => logger.warn({ err: error.message }, 'reviewing licenses waiting for a connection failed'));
  },
};
