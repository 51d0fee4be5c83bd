/** An organization's right to one action, bought à la carte or through a package. */
export type LicenseStatus = 'provisioning' | 'active' | 'failed' | 'deactivated';

/** States in which a license counts: it is held (and billed), or about to be. */
export const LIVE_LICENSE_STATUSES: readonly LicenseStatus[] = ['provisioning', 'active'];

export type LicenseSource = { type: 'a_la_carte' } | { type: 'package'; packageSlug: string; subscriptionId: string };

export interface License {
  id: string;
  organizationId: string;
  actionKey: string;
  source: LicenseSource;
  status: LicenseStatus;
  failureReason: string | null;
  createdAt: Date;
  activatedAt: Date | null;
  failedAt: Date | null;
  deactivatedAt: Date | null;
}

/** The uniqueness scope of a live license: one per organization, action and source. */
export const sourceKey = (source: LicenseSource): string => (source.type === 'a_la_carte' ? 'a_la_carte' : source.packageSlug);

export const subscriptionIdOf = (license: License): string | undefined => (license.source.type === 'package' ? license.source.subscriptionId : undefined);
