/**
 * Billing: the ledger and invoices (BillingService), collection through the configured
 * PaymentCollector (`host` by default when embedded, `sandbox` in the standalone host),
 * the standing that suspends licenses (folded into ENTITLEMENTS), the renewal job and its
 * schedule, and the /v1/billing router.
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { BillingRenewalProcessor } from '../../jobs/billing-renewal';
import { EntitlementStandingChanges } from '../billing/entitlement-standing-changes';
import { HostPaymentCollector } from '../billing/host-collector';
import { scheduleRenewals } from '../billing/renewal-schedule';
import { SandboxPaymentCollector } from '../billing/sandbox-collector';
import { BillingCheckout } from '../domain/billing/billing-checkout';
import { AccountStanding, BillingGatedEntitlements } from '../domain/billing/billing-entitlements';
import { BILLING_OPTIONS, type BillingOptions } from '../domain/billing/billing-options';
import { BillingService } from '../domain/billing/billing-service';
import { PAYMENT_COLLECTOR } from '../domain/billing/payment-collector';
import { PAYMENT_STANDING, type PaymentStanding } from '../domain/billing/payment-standing';
import { BILLING_REPOSITORY, type BillingRepository } from '../domain/billing/ports';
import { STANDING_CHANGES } from '../domain/billing/standing-changes';
import { CATALOG_REPOSITORY, type CatalogRepository } from '../domain/catalog/catalog';
import { EntitlementCache } from '../domain/entitlements/entitlement-cache';
import { ENTITLEMENT_INVALIDATIONS } from '../domain/entitlements/entitlement-invalidations';
import { ENTITLEMENTS } from '../domain/licenses/entitlements';
import { LicenseChanges } from '../domain/licenses/license-changes';
import { LicenseService } from '../domain/licenses/license-service';
import { OrganizationService } from '../domain/organizations/organization-service';
import { LOGGER, type Logger } from '../domain/shared/logger';
import { billingRoutes } from '../http/routers/billing-router';
import type { BullmqJobQueue } from '../queue/bullmq-queue';
import { KnexBillingRepository } from '../storage/billing-repository';
import { BULLMQ_QUEUES } from './infrastructure';
import type { PluginModule } from './module';

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
    container.registerSingleton(BillingCheckout);
  },
  routers: [
    {
      name: 'billing',
      create: (container, kit) =>
        kit.build('billing', billingRoutes({ billing: container.resolve(BillingService), organizations: container.resolve(OrganizationService) })),
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
    });
    const bullmq = container.isRegistered(BULLMQ_QUEUES) ? container.resolve<BullmqJobQueue>(BULLMQ_QUEUES) : undefined;
    const stopSchedule = await scheduleRenewals(container.resolve(BillingRenewalProcessor), config.billingRenewalIntervalSeconds * 1000, bullmq, logger);
    return async () => {
      stopListening();
      await stopSchedule();
    };
  },
};
