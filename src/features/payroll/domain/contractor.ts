/**
 * A contractor as the 1099 export needs them (payroll.contractor_export): the worker id the
 * organization uses for placements and payouts, the legal name and mailing address from the
 * contractor's W-9, and only the type and last four digits of the TIN. The full TIN stays with
 * whoever files the forms: we never hold it, so a leak of this table cannot expose one.
 */
export const CONTRACTOR_EXPORT_ACTION = 'payroll.contractor_export';

export type TinType = 'ssn' | 'ein' | 'itin';

export interface Contractor {
  id: string;
  organizationId: string;
  /** The organization's id for the worker: `worker_id` of placements, `reference` of payout workers. */
  workerId: string;
  email: string;
  legalName: string;
  tinType: TinType;
  tinLast4: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  /** State or province (US: the two-letter code). */
  region: string;
  postalCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  createdAt: Date;
  updatedAt: Date;
}

export type ContractorInput = Omit<Contractor, 'id' | 'organizationId' | 'createdAt' | 'updatedAt'>;

export interface ContractorRepository {
  /** Inserts, or replaces the details of the organization's contractor with the same worker id; answers the row and whether it was new. */
  upsert(contractor: Contractor): Promise<{ contractor: Contractor; created: boolean }>;
  get(organizationId: string, id: string): Promise<Contractor | undefined>;
  /** All of the organization's contractors, by worker id. */
  all(organizationId: string): Promise<Contractor[]>;
  /** Organizations holding at least one contractor (the yearly sweep's candidates). */
  organizations(): Promise<string[]>;
}

/** One payment to a worker in a tax year, in integer cents. */
export interface ContractorPayment {
  workerId: string;
  currency: string;
  cents: number;
  /** An approved timesheet's pay, or a payout made through the API (payouts from timesheets are the timesheet's pay, counted once). */
  source: 'timesheet' | 'payout';
}

/** What was paid to whom in a tax year (calendar year, UTC). */
export interface ContractorPayments {
  inTaxYear(organizationId: string, taxYear: number): Promise<ContractorPayment[]>;
}

export const CONTRACTOR_REPOSITORY = Symbol('ContractorRepository');
export const CONTRACTOR_PAYMENTS = Symbol('ContractorPayments');
