/** What an organization pays for, as pricing sees it: à la carte actions and packages. */
import type { Money } from '../../../kernel/money';

export interface HeldAction {
  key: string;
  name: string;
  price: Money;
}

export interface HeldPackage {
  slug: string;
  name: string;
  price: Money;
  actionKeys: readonly string[];
}

export interface Holdings {
  aLaCarte: readonly HeldAction[];
  packages: readonly HeldPackage[];
}
