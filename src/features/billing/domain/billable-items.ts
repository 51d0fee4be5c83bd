/**
 * What of an organization's holdings costs money at one instant (pure):
 * - each package at its own price;
 * - each à la carte action at its price, unless a held package covers it (then it costs
 *   nothing extra, and shows as covered);
 * - the platform fee applies while at least one à la carte action is charged.
 */
import type { Holdings } from './holdings';

export interface BillableItem {
  /** `package:<slug>` or `action:<key>`; with the price, what a charge is for. */
  id: string;
  kind: 'package' | 'action';
  key: string;
  name: string;
  price: number;
}

export interface CoveredAction {
  key: string;
  name: string;
  coveredBy: string;
}

export interface Billable {
  items: BillableItem[];
  covered: CoveredAction[];
  feeApplies: boolean;
}

export function billable(holdings: Holdings): Billable {
  const items: BillableItem[] = [];
  const covered: CoveredAction[] = [];
  const packages = [...holdings.packages].sort((a, b) => a.slug.localeCompare(b.slug));
  for (const pkg of packages) items.push({ id: `package:${pkg.slug}`, kind: 'package', key: pkg.slug, name: pkg.name, price: pkg.price.amount });
  const seen = new Set<string>();
  let charged = 0;
  for (const action of [...holdings.aLaCarte].sort((a, b) => a.key.localeCompare(b.key))) {
    if (seen.has(action.key)) continue;
    seen.add(action.key);
    const cover = packages.find((p) => p.actionKeys.includes(action.key));
    if (cover) {
      covered.push({ key: action.key, name: action.name, coveredBy: cover.slug });
    } else {
      items.push({ id: `action:${action.key}`, kind: 'action', key: action.key, name: action.name, price: action.price.amount });
      charged += 1;
    }
  }
  return { items, covered, feeApplies: charged > 0 };
}

export const sameCharge = (a: BillableItem, b: BillableItem): boolean => a.id === b.id && a.price === b.price;
