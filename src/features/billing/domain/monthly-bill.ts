/**
 * The monthly bill, pure and in integer minor units. Rules:
 * - each package costs its one price;
 * - an à la carte action costs its price, unless a held package covers it: then its line
 *   shows 0 and the package (never charged twice);
 * - the platform fee is charged once when at least one à la carte action is charged
 *   (an organization on packages alone pays no platform fee).
 */
import type { Holdings } from './holdings';
import { sum, zero, type Money } from '../../../kernel/money';

export type BillLine =
  | { type: 'platform_fee'; description: string; amount: Money }
  | { type: 'package'; package: string; description: string; amount: Money }
  | { type: 'action'; actionKey: string; description: string; amount: Money; coveredBy: string | null };

export interface MonthlyBill {
  lines: BillLine[];
  total: Money;
}

export function monthlyBill(holdings: Holdings, platformFee: Money): MonthlyBill {
  const currency = platformFee.currency;
  const lines: BillLine[] = [];
  for (const pkg of [...holdings.packages].sort((a, b) => a.slug.localeCompare(b.slug))) {
    lines.push({ type: 'package', package: pkg.slug, description: `Package: ${pkg.name}`, amount: pkg.price });
  }
  const actionLines: BillLine[] = [];
  const seen = new Set<string>();
  for (const action of [...holdings.aLaCarte].sort((a, b) => a.key.localeCompare(b.key))) {
    if (seen.has(action.key)) continue;
    seen.add(action.key);
    const cover = holdings.packages.filter((p) => p.actionKeys.includes(action.key)).sort((a, b) => a.slug.localeCompare(b.slug))[0];
    actionLines.push({
      type: 'action',
      actionKey: action.key,
      description: cover ? `${action.name} (included in package ${cover.slug})` : action.name,
      amount: cover ? zero(currency) : action.price,
      coveredBy: cover?.slug ?? null,
    });
  }
  if (actionLines.some((l) => l.type === 'action' && l.coveredBy === null)) {
    lines.push({ type: 'platform_fee', description: 'Platform fee (à la carte)', amount: platformFee });
  }
  lines.push(...actionLines);
  return {
    lines,
    total: sum(
      lines.map((l) => l.amount),
      currency,
    ),
  };
}
