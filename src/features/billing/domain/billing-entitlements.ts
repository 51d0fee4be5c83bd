/**
 * The entitlement answer with billing's standing folded in: a suspended organization's
 * licenses answer inactive (and `requireActive` says 402 `payment_required`), so the
 * entitlement cache, the hook gate and profile apply all stop at once, and start again
 * the moment the organization is restored (the cache is invalidated on both changes).
 */
import { licenseRequired, type Entitlements } from '../../licensing/domain/entitlements';
import type { PaymentStanding } from './payment-standing';
import { paymentRequired } from './payment-standing';
import type { BillingRepository } from './ports';

export class AccountStanding implements PaymentStanding {
  constructor(private readonly repository: BillingRepository) {}

  async isSuspended(organizationId: string): Promise<boolean> {
    return (await this.repository.findAccount(organizationId))?.status === 'suspended';
  }
}

export class BillingGatedEntitlements implements Entitlements {
  constructor(
    private readonly licenses: Entitlements,
    private readonly standing: PaymentStanding,
  ) {}

  async isActive(organizationId: string, actionKey: string): Promise<boolean> {
    const [active, suspended] = await Promise.all([this.licenses.isActive(organizationId, actionKey), this.standing.isSuspended(organizationId)]);
    return active && !suspended;
  }

  async requireActive(organizationId: string, actionKey: string): Promise<void> {
    if (await this.standing.isSuspended(organizationId)) throw paymentRequired();
    if (!(await this.licenses.isActive(organizationId, actionKey))) throw licenseRequired(actionKey);
  }
}
