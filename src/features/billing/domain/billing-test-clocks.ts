/**
 * Test clocks (outside production only): an organization's billing clock frozen at a time
 * and moved forwards, stopping at every renewal, retry and end of grace on the way, so a
 * year of renewals and dunning can be walked through in seconds.
 */
import { inject, injectable } from 'tsyringe';
import { conflict, invalid, notFound } from '../../../kernel/errors';
import type { BillingAccount } from './billing-account';
import { BILLING_OPTIONS, type BillingOptions } from './billing-options';
import { BillingService } from './billing-service';
import { isUnpaid } from './invoice';
import { BILLING_REPOSITORY, type BillingRepository } from './ports';

@injectable()
export class BillingTestClocks {
  constructor(
    @inject(BillingService) private readonly billing: BillingService,
    @inject(BILLING_REPOSITORY) private readonly repository: BillingRepository,
    @inject(BILLING_OPTIONS) private readonly options: BillingOptions,
  ) {}

  /** Outside production: freezes the account's clock at `at` (only forwards). */
  async setTestClock(organizationId: string, at: Date): Promise<BillingAccount> {
    if (!this.options.testClocks) throw notFound('test clock');
    await this.billing.step(organizationId, async (account) => {
      const now = this.billing.now(account);
      if (account.testClockAt && at.getTime() < now.getTime()) throw invalid('clock_backwards', 'A test clock only moves forwards', 'frozen_time');
      if (!account.testClockAt && account.ledger.lastChangeAt && at.getTime() < account.ledger.lastChangeAt.getTime()) {
        throw invalid('clock_backwards', "A test clock cannot start before the account's last billed change", 'frozen_time');
      }
      return { account: { ...account, testClockAt: at }, result: undefined };
    });
    return this.billing.account(organizationId);
  }

  /** Moves the test clock to `to`, stopping at every due renewal, retry and end of grace on the way. */
  async advanceTestClock(organizationId: string, to: Date): Promise<BillingAccount> {
    if (!this.options.testClocks) throw notFound('test clock');
    const account = await this.billing.account(organizationId);
    if (!account.testClockAt) throw conflict('no_test_clock', 'This organization has no test clock (POST …/test_clock first)');
    if (to.getTime() < account.testClockAt.getTime()) throw invalid('clock_backwards', 'A test clock only moves forwards', 'to');
    await this.billing.tick(organizationId); // whatever is due already, at the clock's current time
    for (let guard = 0; guard < 10_000; guard++) {
      const next = await this.repository.findAccount(organizationId);
      const due = next ? await this.nextDue(next) : null;
      const stop = due && due.getTime() <= to.getTime() ? due : to;
      await this.setClock(organizationId, stop);
      await this.billing.tick(organizationId);
      if (stop === to) break;
    }
    return this.billing.account(organizationId);
  }

  private async nextDue(account: BillingAccount): Promise<Date | null> {
    const unpaid = (await this.repository.listInvoices({ organizationId: account.organizationId, limit: 100 })).data.filter(isUnpaid);
    const due = this.billing.nextActionAt(account, unpaid);
    return due && account.testClockAt && due.getTime() > account.testClockAt.getTime() ? due : null;
  }

  private async setClock(organizationId: string, at: Date): Promise<void> {
    await this.billing.step(organizationId, async (account) => ({ account: { ...account, testClockAt: at }, result: undefined }));
  }
}
