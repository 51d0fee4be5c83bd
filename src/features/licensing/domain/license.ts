/** An organization's right to one action, bought à la carte or through a package. */
export type LicenseStatus = 'requires_connection' | 'provisioning' | 'active' | 'failed' | 'deactivated';

/**
 * States in which a license is held: one per organization, action and source. Billing
 * counts `provisioning` and `active` only: a license waiting for a connection is not charged.
 */
export const LIVE_LICENSE_STATUSES: readonly LicenseStatus[] = ['requires_connection', 'provisioning', 'active'];

export type LicenseSource = { type: 'a_la_carte' } | { type: 'package'; packageSlug: string; subscriptionId: string };

export interface License {
  id: string;
  organizationId: string;
  actionKey: string;
  source: LicenseSource;
  status: LicenseStatus;
  failureReason: string | null;
  /** requires_connection: the connector kinds (email, sms, …) its action still needs a verified connection for. */
  missingConnections: string[];
  createdAt: Date;
  activatedAt: Date | null;
  failedAt: Date | null;
  deactivatedAt: Date | null;
}

/** The uniqueness scope of a live license: one per organization, action and source. */
export const sourceKey = (source: LicenseSource): string => (source.type === 'a_la_carte' ? 'a_la_carte' : source.packageSlug);

export const subscriptionIdOf = (license: License): string | undefined => (license.source.type === 'package' ? license.source.subscriptionId : undefined);
