/**
 * Whether an organization takes profile applications at all: profile apply is switched
 * on in its settings, and it holds the `profile.accept_application` license. The public
 * listing, the connect popup and the apply endpoint all ask here, so they never disagree.
 * The license is answered by the EntitlementCache (kept consistent across processes).
 */
import { inject, injectable } from 'tsyringe';
import { EntitlementCache } from '../../licensing/domain/entitlement-cache';
import { PAYMENT_STANDING, paymentRequired, type PaymentStanding } from '../../billing/domain/payment-standing';
import { ACCEPT_APPLICATION, licenseRequired } from '../../licensing/domain/entitlements';
import type { ProfileApplySettings } from './profile-apply-settings';
import { ProfileApplySettingsService } from './settings-service';
import { DomainError, forbidden } from '../../../kernel/errors';

/** Why an organization takes no profile applications (a 403 of that code; 402 `payment_required` when suspended for non-payment). */
export type Unavailable = DomainError & { code: 'integration_disabled' | 'license_required' | 'payment_required' };

export type Availability =
  | { accepting: true; settings: ProfileApplySettings }
  /** `settings` is undefined when the organization does not exist. */
  | { accepting: false; settings?: ProfileApplySettings; reason: Unavailable };

const integrationDisabled = () => forbidden('integration_disabled', 'Profile apply is not enabled for this organization (PATCH /v1/organization/settings)');

@injectable()
export class ProfileApplyAvailability {
  constructor(
    @inject(ProfileApplySettingsService) private readonly settings: ProfileApplySettingsService,
    @inject(EntitlementCache) private readonly entitlements: EntitlementCache,
    @inject(PAYMENT_STANDING) private readonly standing: PaymentStanding,
  ) {}

  async check(organizationId: string): Promise<Availability> {
    const settings = await this.settings.find(organizationId);
    if (!settings?.enabled) return { accepting: false, settings, reason: integrationDisabled() as Unavailable };
    if (!(await this.entitlements.isActive(organizationId, ACCEPT_APPLICATION))) {
      // The slow path only: a suspended organization's licenses answer inactive.
      const reason = (await this.standing.isSuspended(organizationId)) ? paymentRequired() : licenseRequired(ACCEPT_APPLICATION);
      return { accepting: false, settings, reason: reason as Unavailable };
    }
    return { accepting: true, settings };
  }

  /** Throws 403 `integration_disabled` or `license_required` unless the organization accepts. */
  async require(organizationId: string): Promise<void> {
    const availability = await this.check(organizationId);
    if (!availability.accepting) throw availability.reason;
  }
}
