/**
 * Queue `billing-renewal`: a repeatable job (a BullMQ job scheduler, every
 * BILLING_RENEWAL_INTERVAL_SECONDS; a timer in embedded mode) that brings every due
 * account up to date: renewals of periods that ended (all of them after downtime),
 * payment retries on the schedule, suspension after the grace period.
 *
 * Idempotent: each account is handled under its row lock, and a period found already
 * renewed is not due any more; `hi_invoices_one_per_period` refuses a second invoice for
 * an organization and period, so two runs at once (two workers, a retry) make one invoice.
 */
import { inject, injectable } from 'tsyringe';
import type { JobContext, JobProcessor } from '../../../kernel/job-queue';
import { BillingService } from '../domain/billing-service';

export const BILLING_RENEWAL_QUEUE = 'billing-renewal';

@injectable()
export class BillingRenewalProcessor implements JobProcessor<Record<string, never>> {
  readonly queue = BILLING_RENEWAL_QUEUE;

  constructor(@inject(BillingService) private readonly billing: BillingService) {}

  async process(_job: JobContext<Record<string, never>>): Promise<{ accounts: number }> {
    return { accounts: await this.billing.runDue() };
  }
}
