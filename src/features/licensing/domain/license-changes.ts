/**
 * The one place license and subscription changes are announced, after they committed:
 * in-process listeners first (an entitlement cache invalidates here), then the host's
 * hook bus. A failing listener or hook is logged and never undoes the change.
 */
import { inject, injectable } from 'tsyringe';
import { eventMessage, type OutboxMessage } from '../../../kernel/outbox';
import type { Disposer } from '../../../kernel/disposer';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { subscriptionIdOf, type License } from './license';
import type { Subscription } from './subscription';

export type LicenseEventName = 'license.activated' | 'license.failed' | 'license.deactivated';
export type SubscriptionEventName = 'subscription.created' | 'subscription.canceled';

export type LicenseChange =
  | {
      event: LicenseEventName;
      license: License;
      /** After this change, does the organization still hold the action through another license? */ stillEntitled: boolean;
    }
  | { event: SubscriptionEventName; subscription: Subscription };

export type LicenseChangeListener = (change: LicenseChange) => void | Promise<void>;

export function licenseEventPayload(license: License, stillEntitled: boolean): object {
  return {
    license_id: license.id,
    action_key: license.actionKey,
    source: license.source.type,
    package: license.source.type === 'package' ? license.source.packageSlug : null,
    subscription_id: subscriptionIdOf(license) ?? null,
    status: license.status,
    failure_reason: license.failureReason,
    entitled: license.status === 'active' || stillEntitled,
  };
}

export function subscriptionEventPayload(subscription: Subscription): object {
  return { subscription_id: subscription.id, package: subscription.packageSlug, status: subscription.status };
}

/** The event recorded in the transaction of the change itself (the outbox); announcing it later is a no-op in the log. */
export function licenseEventMessage(event: LicenseEventName, license: License, stillEntitled: boolean): OutboxMessage {
  return eventMessage({
    organizationId: license.organizationId,
    type: event,
    data: licenseEventPayload(license, stillEntitled),
    dedupeKey: `${event}:${license.id}`,
  });
}

export function subscriptionEventMessage(event: SubscriptionEventName, subscription: Subscription): OutboxMessage {
  return eventMessage({
    organizationId: subscription.organizationId,
    type: event,
    data: subscriptionEventPayload(subscription),
    dedupeKey: `${event}:${subscription.id}`,
  });
}

@injectable()
export class LicenseChanges {
  private readonly listeners = new Set<LicenseChangeListener>();

  constructor(
    @inject(EVENT_PUBLISHER) private readonly publisher: EventPublisher,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  onChange(listener: LicenseChangeListener): Disposer {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  license(event: LicenseEventName, license: License, stillEntitled = false): Promise<void> {
    return this.announce({ event, license, stillEntitled }, license.organizationId, licenseEventPayload(license, stillEntitled), `${event}:${license.id}`);
  }

  subscription(event: SubscriptionEventName, subscription: Subscription): Promise<void> {
    return this.announce({ event, subscription }, subscription.organizationId, subscriptionEventPayload(subscription), `${event}:${subscription.id}`);
  }

  /** `dedupeKey`: a provisioning job that runs again after a crash announces again; the event log keeps one event. */
  private async announce(change: LicenseChange, organizationId: string, payload: object, dedupeKey: string): Promise<void> {
    for (const listener of this.listeners) {
      try {
        await listener(change);
      } catch (error) {
        this.logger.error({ event: change.event, err: (error as Error).message }, 'license change listener failed');
      }
    }
    try {
      await this.publisher.publish(change.event, organizationId, payload, { dedupeKey });
    } catch (error) {
      this.logger.warn({ event: change.event, organizationId, err: (error as Error).message }, 'publishing a license event failed');
    }
  }
}
