/**
 * Which package would cover the organization's à la carte actions for less (pure): for
 * each package not held that covers at least one of them, the bill if the organization
 * subscribed and dropped the à la carte actions it covers. The lowest bill wins if it is
 * below the current one; ties go to the cheaper package, then the slug.
 */
import type { HeldPackage, Holdings } from './holdings';
import { difference, type Money } from '../../../kernel/money';
import { monthlyBill } from './monthly-bill';

export interface PackageSuggestion {
  package: HeldPackage;
  /** À la carte actions the package would replace. */
  covers: string[];
  totalAfter: Money;
  /** How much less per month, in minor units (positive). */
  savings: number;
}

export function suggestPackage(holdings: Holdings, available: readonly HeldPackage[], platformFee: Money): PackageSuggestion | null {
  const current = monthlyBill(holdings, platformFee).total;
  let best: PackageSuggestion | null = null;
  for (const pkg of available) {
    if (holdings.packages.some((p) => p.slug === pkg.slug)) continue;
    const covers = holdings.aLaCarte.map((a) => a.key).filter((key) => pkg.actionKeys.includes(key));
    if (covers.length === 0) continue;
    const after: Holdings = { packages: [...holdings.packages, pkg], aLaCarte: holdings.aLaCarte.filter((a) => !covers.includes(a.key)) };
    const totalAfter = monthlyBill(after, platformFee).total;
    const savings = difference(current, totalAfter);
    if (savings <= 0) continue;
    const better =
      !best ||
      totalAfter.amount < best.totalAfter.amount ||
      (totalAfter.amount === best.totalAfter.amount &&
        (pkg.price.amount < best.package.price.amount || (pkg.price.amount === best.package.price.amount && pkg.slug < best.package.slug)));
    if (better) best = { package: pkg, covers: covers.sort(), totalAfter, savings };
  }
  return best;
}
