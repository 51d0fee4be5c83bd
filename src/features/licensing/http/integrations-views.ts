/** JSON shapes of the integrations API (snake_case, ISO dates, money in integer minor units). */
import type { Catalog, CatalogAction } from '../domain/catalog';
import type { Package } from '../domain/package';
import type { License } from '../domain/license';
import type { SubscriptionWithLicenses } from '../domain/subscription';
import type { BillingPreview } from '../../billing/domain/billing-preview-service';
import type { Money } from '../../../kernel/money';
import type { MonthlyBill } from '../../billing/domain/monthly-bill';
import type { z } from 'zod';
import type { billingPreviewSchema, catalogSchema, licenseSchema, packageSchema, subscriptionSchema } from './integrations-schemas';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export const moneyView = (m: Money) => ({ amount: m.amount, currency: m.currency });

export const actionView = (a: CatalogAction) => ({ key: a.key, name: a.name, description: a.description, price: moneyView(a.price) });

/** Hook handlers this installation registered for an action (src/features/hooks/domain/hook-registry.ts). */
export type HookHandlersOf = (actionKey: string) => readonly { name: string; hook: string; steps?: readonly string[] }[];

/** Whether an action can run: a handler, and every connector kind its steps need resolving (`availableKinds`). */
export function availabilityOf(handlers: readonly { steps?: readonly string[] }[], availableKinds: ReadonlySet<string> | undefined, builtIn = false) {
  const steps = [...new Set(handlers.flatMap((h) => h.steps ?? []))];
  if (handlers.length === 0 && !builtIn) {
    return { steps, availability: { status: 'not_available' as const, missing: [], purchasable: false, reason: 'no_handler' as const } };
  }
  const missing = availableKinds ? steps.filter((kind) => !availableKinds.has(kind)) : [];
  return {
    steps,
    availability:
      missing.length > 0
        ? { status: 'requires_connection' as const, missing, purchasable: true, reason: 'connection_missing' as const }
        : { status: 'available' as const, missing, purchasable: true, reason: null },
  };
}

/** The catalog; the router adds the billing rules. */
export const catalogView = (
  catalog: Catalog,
  hookHandlersOf: HookHandlersOf = () => [],
  availableKinds?: ReadonlySet<string>,
  builtInActions: ReadonlySet<string> = new Set(),
  builtInStepsOf: (actionKey: string) => readonly string[] = () => [],
): Omit<z.output<typeof catalogSchema>, 'billing_rules'> => ({
  object: 'catalog',
  version: catalog.version,
  platform_fee: moneyView(catalog.platformFee),
  groups: catalog.groups.map((g) => ({
    key: g.key,
    name: g.name,
    description: g.description,
    actions: g.actions.map((a) => {
      // Added by the hooks module (issue 5): whether this installation has a hook handler for the action.
      const registered = hookHandlersOf(a.key);
      const handlers = registered.map((h) => ({ name: h.name, hook: h.hook }));
      return {
        ...actionView(a),
        has_hook_handler: handlers.length > 0,
        hook_handlers: handlers,
        ...(builtInActions.has(a.key)
          ? availabilityOf([...registered, { steps: builtInStepsOf(a.key) }], availableKinds, true)
          : availabilityOf(registered, availableKinds)),
      };
    }),
  })),
});

export const packageView = (p: Package): z.output<typeof packageSchema> => ({
  id: p.id,
  object: 'package',
  slug: p.slug,
  name: p.name,
  description: p.description,
  price: moneyView(p.price),
  actions: p.actions.map(actionView),
  status: p.status,
  created_at: iso(p.createdAt),
  updated_at: iso(p.updatedAt),
  archived_at: iso(p.archivedAt),
});

export const licenseView = (l: License): z.output<typeof licenseSchema> => ({
  id: l.id,
  object: 'license',
  organization_id: l.organizationId,
  action_key: l.actionKey,
  source: l.source.type,
  package: l.source.type === 'package' ? l.source.packageSlug : null,
  subscription_id: l.source.type === 'package' ? l.source.subscriptionId : null,
  status: l.status,
  missing_connections: l.missingConnections,
  failure_reason: l.failureReason,
  created_at: iso(l.createdAt),
  activated_at: iso(l.activatedAt),
  failed_at: iso(l.failedAt),
  deactivated_at: iso(l.deactivatedAt),
});

export const subscriptionView = ({ subscription: s, licenses }: SubscriptionWithLicenses): z.output<typeof subscriptionSchema> => ({
  id: s.id,
  object: 'subscription',
  organization_id: s.organizationId,
  package: s.packageSlug,
  package_id: s.packageId,
  price: moneyView(s.price),
  status: s.status,
  failure_reason: s.failureReason,
  licenses: licenses.map(licenseView),
  created_at: iso(s.createdAt),
  activated_at: iso(s.activatedAt),
  failed_at: iso(s.failedAt),
  canceled_at: iso(s.canceledAt),
});

export const listView = <T>(data: T[]) => ({ object: 'list' as const, data, has_more: false });

const billView = (bill: MonthlyBill) => ({
  lines: bill.lines.map((line) => ({
    type: line.type,
    ...(line.type === 'action' ? { action_key: line.actionKey } : {}),
    ...(line.type === 'package' ? { package: line.package } : {}),
    description: line.description,
    amount: line.amount.amount,
    currency: line.amount.currency,
    ...(line.type === 'action' ? { covered_by: line.coveredBy } : {}),
  })),
  total: bill.total.amount,
  currency: bill.total.currency,
});

/** The preview; the router adds the quote. */
export const billingPreviewView = (preview: BillingPreview): Omit<z.output<typeof billingPreviewSchema>, 'quote'> => ({
  object: 'billing_preview',
  currency: preview.platformFee.currency,
  platform_fee: moneyView(preview.platformFee),
  current: billView(preview.current),
  proposed_change: preview.change
    ? 'actionKey' in preview.change
      ? { type: preview.change.type, action_key: preview.change.actionKey }
      : { type: preview.change.type, package: preview.change.packageSlug }
    : null,
  after: preview.after ? billView(preview.after) : null,
  difference: preview.after ? preview.after.total.amount - preview.current.total.amount : null,
  suggestion: preview.suggestion
    ? {
        package: preview.suggestion.package.slug,
        name: preview.suggestion.package.name,
        price: moneyView(preview.suggestion.package.price),
        covers: preview.suggestion.covers,
        total_after: preview.suggestion.totalAfter.amount,
        savings: preview.suggestion.savings,
      }
    : null,
});
