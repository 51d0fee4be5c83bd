/** An organization's subscription to a package: the parent of one license per action. */
import type { Money } from '../../../kernel/money';
import type { License } from './license';

export type SubscriptionStatus = 'provisioning' | 'active' | 'failed' | 'canceled';

export const LIVE_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['provisioning', 'active'];

export interface Subscription {
  id: string;
  organizationId: string;
  packageId: string;
  packageSlug: string;
  /** The package's price when the organization subscribed; later price changes do not apply. */
  price: Money;
  status: SubscriptionStatus;
  failureReason: string | null;
  createdAt: Date;
  activatedAt: Date | null;
  failedAt: Date | null;
  canceledAt: Date | null;
}

export interface SubscriptionWithLicenses {
  subscription: Subscription;
  licenses: License[];
}
