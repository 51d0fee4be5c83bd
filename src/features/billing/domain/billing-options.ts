/** Billing settings from the configuration. */
export interface BillingOptions {
  currency: string;
  graceDays: number;
  /** Test clocks exist outside production only. */
  testClocks: boolean;
}

export const BILLING_OPTIONS = Symbol('BillingOptions');
