/**
 * Queue `timesheet-payouts`: one job per approved timesheet (job id `timesheet-payout-<id>`,
 * added when the client's contact approves), paying the worker. Retried with backoff while
 * the provider is away; the payout's reference makes a repeated job pay nothing twice
 * (idempotent: the deterministic job id and the unique reference `timesheet:<id>`).
 */
import type { JobContext, JobProcessor } from '../../../kernel/job-queue';
import type { TimesheetPayouts } from '../domain/timesheet-payouts';

export const TIMESHEET_PAYOUT_QUEUE = 'timesheet-payouts';

export interface TimesheetPayoutJob {
  organizationId: string;
  timesheetId: string;
}

export const timesheetPayoutJobId = (timesheetId: string) => `timesheet-payout-${timesheetId}`;

export class TimesheetPayoutProcessor implements JobProcessor<TimesheetPayoutJob> {
  readonly queue = TIMESHEET_PAYOUT_QUEUE;

  constructor(private readonly payouts: TimesheetPayouts) {}

  async process(job: JobContext<TimesheetPayoutJob>): Promise<{ payout_id: string | null; status: string | null }> {
    const payout = await this.payouts.pay(job.data.organizationId, job.data.timesheetId);
    return { payout_id: payout?.id ?? null, status: payout?.status ?? null };
  }
}
