/**
 * Billing: the ledger and invoices (BillingService), collection through the configured
 * PaymentCollector (`host` by default when embedded, `sandbox` in the standalone host),
 * the standing that suspends licenses (folded into ENTITLEMENTS), the renewal job and its
 * schedule, and the /v1/billing router.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { BillingRenewalProcessor } from './jobs/billing-renewal';
import { EntitlementStandingChanges } from './domain/entitlement-standing-changes';
import { HostPaymentCollector } from './collectors/host-collector';
import { scheduleRenewals } from './jobs/renewal-schedule';
import { SandboxPaymentCollector } from './collectors/sandbox-collector';
import { BillingCheckout } from './domain/billing-checkout';
import { AccountStanding, BillingGatedEntitlements } from './domain/billing-entitlements';
import { BILLING_OPTIONS, type BillingOptions } from './domain/billing-options';
import { BillingService } from './domain/billing-service';
import { BillingQuotes } from './domain/billing-quotes';
import { BillingTestClocks } from './domain/billing-test-clocks';
import { PAYMENT_COLLECTOR } from './domain/payment-collector';
import { PAYMENT_STANDING, type PaymentStanding } from './domain/payment-standing';
import { BILLING_REPOSITORY, type BillingRepository } from './domain/ports';
import { STANDING_CHANGES } from './domain/standing-changes';
import { CATALOG_REPOSITORY, type CatalogRepository } from '../licensing/domain/catalog';
import { EntitlementCache } from '../licensing/domain/entitlement-cache';
import { ENTITLEMENT_INVALIDATIONS } from '../licensing/domain/entitlement-invalidations';
import { ENTITLEMENTS } from '../licensing/domain/entitlements';
import { LicenseChanges } from '../licensing/domain/license-changes';
import { LicenseService } from '../licensing/domain/license-service';
import { OrganizationService } from '../organizations/domain/organization-service';
import { LOGGER, type Logger } from '../../kernel/logger';
import { billingRoutes } from './http/billing-router';
import type { BullmqJobQueue } from '../../platform/queue/bullmq-queue';
import { KnexBillingRepository } from './storage/billing-repository';
import { BULLMQ_QUEUES } from '../../composition/infrastructure';
import type { PluginModule } from '../../platform/composition/plugin-module';

export const billingModule: PluginModule = {
  name: 'billing',
  register(container, { config }) {
    container.registerSingleton(BILLING_REPOSITORY, KnexBillingRepository);
    container.register<BillingOptions>(BILLING_OPTIONS, {
      useValue: { currency: 'USD', graceDays: config.billingGraceDays, testClocks: config.env !== 'production' },
    });
    const collection = config.billingCollection ?? 'host';
    container.register(PAYMENT_COLLECTOR, { useValue: collection === 'sandbox' ? new SandboxPaymentCollector() : new HostPaymentCollector() });
    container.register(PAYMENT_STANDING, { useFactory: instanceCachingFactory((c) => new AccountStanding(c.resolve<BillingRepository>(BILLING_REPOSITORY))) });
    // Suspension is part of the entitlement answer (the cache, the hook gate and apply all see it).
    container.register(ENTITLEMENTS, {
      useFactory: instanceCachingFactory((c) => new BillingGatedEntitlements(c.resolve(LicenseService), c.resolve<PaymentStanding>(PAYMENT_STANDING))),
    });
    container.register(STANDING_CHANGES, {
      useFactory: instanceCachingFactory(
        (c) =>
          new EntitlementStandingChanges(
            c.resolve<CatalogRepository>(CATALOG_REPOSITORY),
            () => c.resolve(EntitlementCache),
            () => c.resolve(ENTITLEMENT_INVALIDATIONS),
            c.resolve<Logger>(LOGGER),
          ),
      ),
    });
    container.registerSingleton(BillingService);
    container.registerSingleton(BillingQuotes);
    container.registerSingleton(BillingTestClocks);
    container.registerSingleton(BillingCheckout);
  },
  routers: [
    {
      name: 'billing',
      create: (container, kit) =>
        kit.build(
          'billing',
          billingRoutes({
            billing: container.resolve(BillingService),
            quotes: container.resolve(BillingQuotes),
            testClocks: container.resolve(BillingTestClocks),
            organizations: container.resolve(OrganizationService),
          }),
        ),
    },
  ],
  processors: (container: DependencyContainer) => [container.resolve(BillingRenewalProcessor)],
  async start(container, { config, logger }) {
    const billing = container.resolve(BillingService);
    // A license that fails or ends outside a purchase call (provisioning, a package's
    // siblings) still reaches the ledger at once.
    const stopListening = container.resolve(LicenseChanges).onChange(async (change) => {
      const organizationId = 'license' in change ? change.license.organizationId : change.subscription.organizationId;
      if (change.event === 'license.failed' || change.event === 'license.deactivated' || change.event === 'subscription.canceled')
        await billing.licenseChanged(organizationId);
      // One that waited for a connection (requires_connection) is billed from this instant; not awaited, so
      // the listeners after this one (the entitlement caches) are not held up by the ledger.
      if (change.event === 'license.activated')
        void billing
          .licenseChanged(organizationId)
          .catch((error: Error) => logger.warn({ organizationId, err: error.message }, 'billing an activation failed'));
    });
    const bullmq = container.isRegistered(BULLMQ_QUEUES) ? container.resolve<BullmqJobQueue>(BULLMQ_QUEUES) : undefined;
    const stopSchedule = await scheduleRenewals(container.resolve(BillingRenewalProcessor), config.billingRenewalIntervalSeconds * 1000, bullmq, logger);
    return async () => {
      stopListening();
      await stopSchedule();
    };
  },
};
