/** Row mapping of hi_licenses and hi_subscriptions, shared by their repositories. */
import type { License, LicenseStatus } from '../domain/license';
import { sourceKey } from '../domain/license';
import type { Subscription, SubscriptionStatus } from '../domain/subscription';
import { money } from '../../../kernel/money';
import { fromJson } from '../../../platform/database/json-column';

export interface LicenseRow {
  id: string;
  organization_id: string;
  action_key: string;
  source: string;
  subscription_id: string | null;
  status: LicenseStatus;
  failure_reason: string | null;
  missing_connections?: unknown;
  created_at: Date;
  activated_at: Date | null;
  failed_at: Date | null;
  deactivated_at: Date | null;
  updated_at: Date;
}

export interface SubscriptionRow {
  id: string;
  organization_id: string;
  package_id: string;
  package_slug: string;
  price_amount: number;
  currency: string;
  status: SubscriptionStatus;
  failure_reason: string | null;
  created_at: Date;
  activated_at: Date | null;
  failed_at: Date | null;
  canceled_at: Date | null;
  updated_at: Date;
}

const date = (value: Date | null): Date | null => (value ? new Date(value) : null);

export const licenseFromRow = (row: LicenseRow): License => ({
  id: row.id,
  organizationId: row.organization_id,
  actionKey: row.action_key,
  source: row.subscription_id ? { type: 'package', packageSlug: row.source, subscriptionId: row.subscription_id } : { type: 'a_la_carte' },
  status: row.status,
  failureReason: row.failure_reason,
  missingConnections: row.missing_connections == null ? [] : fromJson<string[]>(row.missing_connections),
  createdAt: new Date(row.created_at),
  activatedAt: date(row.activated_at),
  failedAt: date(row.failed_at),
  deactivatedAt: date(row.deactivated_at),
});

export const licenseToRow = (license: License): Omit<LicenseRow, 'updated_at'> & { updated_at: Date } => ({
  id: license.id,
  organization_id: license.organizationId,
  action_key: license.actionKey,
  source: sourceKey(license.source),
  subscription_id: license.source.type === 'package' ? license.source.subscriptionId : null,
  status: license.status,
  failure_reason: license.failureReason,
  missing_connections: license.missingConnections.length > 0 ? JSON.stringify(license.missingConnections) : null,
  created_at: license.createdAt,
  activated_at: license.activatedAt,
  failed_at: license.failedAt,
  deactivated_at: license.deactivatedAt,
  updated_at: license.createdAt,
});

export const subscriptionFromRow = (row: SubscriptionRow): Subscription => ({
  id: row.id,
  organizationId: row.organization_id,
  packageId: row.package_id,
  packageSlug: row.package_slug,
  price: money(Number(row.price_amount), row.currency),
  status: row.status,
  failureReason: row.failure_reason,
  createdAt: new Date(row.created_at),
  activatedAt: date(row.activated_at),
  failedAt: date(row.failed_at),
  canceledAt: date(row.canceled_at),
});

export const subscriptionToRow = (s: Subscription): SubscriptionRow => ({
  id: s.id,
  organization_id: s.organizationId,
  package_id: s.packageId,
  package_slug: s.packageSlug,
  price_amount: s.price.amount,
  currency: s.price.currency,
  status: s.status,
  failure_reason: s.failureReason,
  created_at: s.createdAt,
  activated_at: s.activatedAt,
  failed_at: s.failedAt,
  canceled_at: s.canceledAt,
  updated_at: s.createdAt,
});

/** Columns a license transition writes besides its status. */
export function licenseTransitionColumns(status: LicenseStatus, at: Date, failureReason?: string): Record<string, unknown> {
  const columns: Record<string, unknown> = { status, updated_at: at };
  if (status === 'active') columns.activated_at = at;
  if (status === 'failed') Object.assign(columns, { failed_at: at, failure_reason: failureReason ?? 'provisioning failed' });
  if (status === 'deactivated') columns.deactivated_at = at;
  if (status !== 'requires_connection') columns.missing_connections = null;
  return columns;
}
