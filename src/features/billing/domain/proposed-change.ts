/** A change the organization is considering, applied to its holdings (pure). */
import { invalid } from '../../../kernel/errors';
import type { HeldAction, HeldPackage, Holdings } from './holdings';

export type ProposedChange =
  | { type: 'activate'; action: HeldAction }
  | { type: 'deactivate'; actionKey: string }
  | { type: 'subscribe'; package: HeldPackage }
  | { type: 'unsubscribe'; packageSlug: string };

export function applyChange(holdings: Holdings, change: ProposedChange): Holdings {
  switch (change.type) {
    case 'activate':
      if (holdings.aLaCarte.some((a) => a.key === change.action.key)) return holdings;
      return { ...holdings, aLaCarte: [...holdings.aLaCarte, change.action] };
    case 'deactivate':
      if (!holdings.aLaCarte.some((a) => a.key === change.actionKey)) {
        throw invalid('invalid_proposed_change', `The organization holds no à la carte license for '${change.actionKey}'`, 'deactivate');
      }
      return { ...holdings, aLaCarte: holdings.aLaCarte.filter((a) => a.key !== change.actionKey) };
    case 'subscribe':
      if (holdings.packages.some((p) => p.slug === change.package.slug)) return holdings;
      return { ...holdings, packages: [...holdings.packages, change.package] };
    case 'unsubscribe':
      if (!holdings.packages.some((p) => p.slug === change.packageSlug)) {
        throw invalid('invalid_proposed_change', `The organization is not subscribed to '${change.packageSlug}'`, 'unsubscribe');
      }
      return { ...holdings, packages: holdings.packages.filter((p) => p.slug !== change.packageSlug) };
  }
}
