/**
 * A placement: one worker placed by the agency at one client company, with the rate the
 * client is billed and the rate the worker is paid (integer cents per hour), the overtime rule
 * and the time zone the workdays are counted in. The client's contact approves the timesheets.
 */
import type { OvertimeRule } from './overtime';

export interface Placement {
  id: string;
  organizationId: string;
  /** The host's id of the worker (the person paid). */
  workerId: string;
  workerName: string;
  workerEmail: string | null;
  /** The host's id of the client company (invoices are per client company). */
  clientCompanyId: string;
  clientName: string;
  clientContactName: string;
  clientContactEmail: string;
  billRateCents: number;
  payRateCents: number;
  currency: string;
  overtimeRule: OvertimeRule;
  timezone: string;
  createdAt: Date;
}
