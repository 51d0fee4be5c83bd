/** Storage ports of licenses and subscriptions. Writes carry their outbox messages. */
import type { OutboxMessage } from '../../../kernel/outbox';
import type { License, LicenseStatus } from './license';
import type { LicenseEvent } from './license-state-machine';
import type { Subscription, SubscriptionWithLicenses } from './subscription';

export type CreateResult<T> = { created: true; value: T } | { created: false; value: T };

export interface LicenseTransition {
  event: LicenseEvent;
  at: Date;
  failureReason?: string;
}

export interface LicenseRepository {
  /**
   * Inserts the license and its outbox messages in one transaction; when a live license
   * of the same organization, action and source exists (or wins a race), answers it.
   */
  create(license: License, messages: readonly OutboxMessage[]): Promise<CreateResult<License>>;
  findById(licenseId: string): Promise<License | undefined>;
  /** The live (provisioning or active) license of this organization, action and source. */
  findLive(organizationId: string, actionKey: string, source: 'a_la_carte' | string): Promise<License | undefined>;
  /** Newest first. */
  list(organizationId: string, filter?: { status?: LicenseStatus; actionKey?: string }): Promise<License[]>;
  /** Organizations holding a license in `requires_connection`. */
  organizationsAwaitingConnection(): Promise<string[]>;
  /** Live licenses of the organization, any source. */
  listLive(organizationId: string): Promise<License[]>;
  /** Does the organization hold an active license for the action, from any source? */
  hasActive(organizationId: string, actionKey: string): Promise<boolean>;
  /** Is another license than `exceptLicenseId` live for the organization and action? */
  hasOtherLive(organizationId: string, actionKey: string, exceptLicenseId: string): Promise<boolean>;
  /**
   * Moves the license by `transition` if it is still in a state the event leaves from,
   * writing the messages in the same transaction; undefined when it was not.
   */
  transition(licenseId: string, transition: LicenseTransition, messages?: readonly OutboxMessage[]): Promise<License | undefined>;
}

export interface SubscriptionSettlement {
  subscription: Subscription;
  /** Licenses deactivated by this step (siblings of a failed license, or a cancel). */
  deactivated: License[];
  /** Whether this call changed the subscription's state. */
  changed: boolean;
}

export interface SubscriptionRepository {
  /**
   * Inserts the subscription, its licenses and their outbox messages in one transaction;
   * when the organization already has a live subscription to the package, answers it.
   */
  create(subscription: Subscription, licenses: readonly License[], messages: readonly OutboxMessage[]): Promise<CreateResult<SubscriptionWithLicenses>>;
  find(organizationId: string, subscriptionId: string): Promise<SubscriptionWithLicenses | undefined>;
  findById(subscriptionId: string): Promise<SubscriptionWithLicenses | undefined>;
  /** The newest subscription to the package that is not canceled. */
  findCurrent(organizationId: string, packageId: string): Promise<SubscriptionWithLicenses | undefined>;
  list(organizationId: string): Promise<SubscriptionWithLicenses[]>;
  listLive(organizationId: string): Promise<Subscription[]>;
  /**
   * Locks the subscription, reads its licenses and applies what they say
   * (settleFromChildren); a failure deactivates the live siblings. Concurrent children
   * finishing at once are serialized by the lock.
   */
  settle(subscriptionId: string, at: Date, deprovision: (license: License) => OutboxMessage | readonly OutboxMessage[]): Promise<SubscriptionSettlement>;
  /** Cancels it and deactivates its live licenses, with their deprovision messages, in one transaction. */
  /** `parent`: messages written with the canceled subscription (its event). */
  cancel(
    subscriptionId: string,
    at: Date,
    deprovision: (license: License) => OutboxMessage | readonly OutboxMessage[],
    parent?: (subscription: Subscription) => readonly OutboxMessage[],
  ): Promise<SubscriptionSettlement>;
}

export const LICENSE_REPOSITORY = Symbol('LicenseRepository');
export const SUBSCRIPTION_REPOSITORY = Symbol('SubscriptionRepository');
