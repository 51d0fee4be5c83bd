/**
 * Package subscriptions. Subscribing writes the subscription (the parent), one license
 * per package action (the children) and their provisioning jobs in one transaction; each
 * child's job settles the parent when it finishes. Unsubscribing cancels the parent and
 * deactivates its licenses; an action the organization also holds à la carte stays held
 * through that separate license, and its integration is not torn down.
 */
import { inject, injectable } from 'tsyringe';
import { PackageService } from './package-service';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '../../../kernel/outbox';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { conflict, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import { subscriptionIdOf, type License } from './license';
import { LicenseChanges, licenseEventMessage, subscriptionEventMessage } from './license-changes';
import { LICENSE_REPOSITORY, SUBSCRIPTION_REPOSITORY, type LicenseRepository, type SubscriptionRepository } from './ports';
import { deprovisionMessage, provisionMessage } from './provisioning-messages';
import type { Subscription, SubscriptionWithLicenses } from './subscription';

@injectable()
export class SubscriptionService {
  constructor(
    @inject(SUBSCRIPTION_REPOSITORY) private readonly subscriptions: SubscriptionRepository,
    @inject(LICENSE_REPOSITORY) private readonly licenses: LicenseRepository,
    @inject(PackageService) private readonly packages: PackageService,
    @inject(LicenseChanges) private readonly changes: LicenseChanges,
    @inject(OUTBOX_NOTIFIER) private readonly outbox: OutboxNotifier,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async subscribe(organizationId: string, slug: string): Promise<SubscriptionWithLicenses & { created: boolean }> {
    const pkg = await this.packages.get(slug);
    const current = await this.subscriptions.findCurrent(organizationId, pkg.id);
    if (current && (current.subscription.status === 'provisioning' || current.subscription.status === 'active')) return { ...current, created: false };
    if (pkg.status === 'archived') throw conflict('package_archived', `The package '${slug}' is archived and takes no new subscriptions`);

    const now = this.clock.now();
    const subscription: Subscription = {
      id: newId('sub'),
      organizationId,
      packageId: pkg.id,
      packageSlug: pkg.slug,
      price: pkg.price,
      status: 'provisioning',
      failureReason: null,
      createdAt: now,
      activatedAt: null,
      failedAt: null,
      canceledAt: null,
    };
    const licenses: License[] = pkg.actions.map((action) => ({
      id: newId('lic'),
      organizationId,
      actionKey: action.key,
      source: { type: 'package', packageSlug: pkg.slug, subscriptionId: subscription.id },
      status: 'provisioning',
      failureReason: null,
      missingConnections: [],
      createdAt: now,
      activatedAt: null,
      failedAt: null,
      deactivatedAt: null,
    }));
    const result = await this.subscriptions.create(subscription, licenses, [
      ...licenses.map((l) => provisionMessage(l.id)),
      subscriptionEventMessage('subscription.created', subscription),
    ]);
    if (!result.created) return { ...result.value, created: false };
    this.outbox.nudge();
    await this.changes.subscription('subscription.created', subscription);
    return { ...result.value, created: true };
  }

  async unsubscribe(organizationId: string, slug: string): Promise<SubscriptionWithLicenses> {
    const pkg = await this.packages.get(slug);
    const current = await this.subscriptions.findCurrent(organizationId, pkg.id);
    if (!current) throw notFound('subscription to package', slug);
    const heldElsewhere = await this.heldOutside(organizationId, current.subscription.id);
    const settlement = await this.subscriptions.cancel(
      current.subscription.id,
      this.clock.now(),
      (l) => this.deactivationMessages(l, heldElsewhere),
      (canceled) => [subscriptionEventMessage('subscription.canceled', canceled)],
    );
    if (!settlement.changed) throw conflict('invalid_subscription_state', `The subscription is ${settlement.subscription.status}`);
    this.outbox.nudge();
    for (const license of settlement.deactivated) {
      await this.changes.license('license.deactivated', license, await this.licenses.hasActive(organizationId, license.actionKey));
    }
    await this.changes.subscription('subscription.canceled', settlement.subscription);
    return (await this.subscriptions.findById(current.subscription.id))!;
  }

  list(organizationId: string): Promise<SubscriptionWithLicenses[]> {
    return this.subscriptions.list(organizationId);
  }

  /** Called by a child license's job when it finished (active or failed). */
  async settle(subscriptionId: string): Promise<Subscription> {
    const parent = await this.subscriptions.findById(subscriptionId);
    const heldElsewhere = parent ? await this.heldOutside(parent.subscription.organizationId, subscriptionId) : new Set<string>();
    const settlement = await this.subscriptions.settle(subscriptionId, this.clock.now(), (l) => this.deactivationMessages(l, heldElsewhere));
    if (settlement.deactivated.length > 0) this.outbox.nudge();
    for (const license of settlement.deactivated) {
      await this.changes.license('license.deactivated', license, await this.licenses.hasActive(license.organizationId, license.actionKey));
    }
    return settlement.subscription;
  }

  /** Actions the organization holds active through licenses other than this subscription's. */
  private async heldOutside(organizationId: string, subscriptionId: string): Promise<Set<string>> {
    const live = await this.licenses.listLive(organizationId);
    return new Set(live.filter((l) => l.status === 'active' && subscriptionIdOf(l) !== subscriptionId).map((l) => l.actionKey));
  }

  /** A deactivated child's deprovision job and its license.deactivated event, written with the change. */
  private deactivationMessages(license: License, heldElsewhere: Set<string>) {
    return [deprovisionMessage(license.id), licenseEventMessage('license.deactivated', license, heldElsewhere.has(license.actionKey))];
  }
}
