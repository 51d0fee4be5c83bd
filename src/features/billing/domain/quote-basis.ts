import type { LedgerState } from './billing-ledger';

/** The ledger's state a quote is valid for: the same holdings and the same last change. */
export const basisOf = (ledger: LedgerState): string =>
  JSON.stringify([
    ledger.period?.start ?? null,
    ledger.lastChangeAt ?? null,
    ledger.holdings.aLaCarte.map((a) => a.key).sort(),
    ledger.holdings.packages.map((p) => p.slug).sort(),
  ]);
