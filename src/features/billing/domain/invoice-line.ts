/** One line of an invoice (or of a quote, or of the upcoming invoice). Amounts are signed cents. */
export type InvoiceLineType = 'platform_fee' | 'package' | 'action';

export interface InvoiceLine {
  type: InvoiceLineType;
  /** Package slug or action key; null for the platform fee. */
  key: string | null;
  description: string;
  /** Signed: a credit for unused time is negative. */
  amount: number;
  /** true for a charge or credit for part of a period (a change inside it). */
  proration: boolean;
  periodStart: Date;
  periodEnd: Date;
  /** A covered à la carte action: the package that includes it (its line is 0). */
  coveredBy?: string;
}

export const lineTotal = (lines: readonly InvoiceLine[]): number => lines.reduce((sum, line) => sum + line.amount, 0);
