/**
 * Payouts from approved timesheets (`payouts.instant_pay`): each approved timesheet pays its
 * worker the timesheet's pay (integer cents, overtime included) through the same two runs as
 * an API payout, under the reference `timesheet:<id>`, so a timesheet pays once however often
 * its job runs. The worker is the payout worker whose reference is the placement's worker_id.
 * Organizations without the license pay another way: nothing happens for them. When the
 * payout cannot start (no such worker, KYC incomplete) the failure is a failed run with its
 * code and a `timesheet.payout_failed` event; a refusal by the provider fails the payout
 * itself (`payout.failed`); an outage is rethrown so the job retries.
 */
import { conflict, isDomainError } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import type { Logger } from '../../../kernel/logger';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import { announce } from '../../hooks/domain/connector-handlers';
import type { ApprovedTimesheets } from '../../timesheets/domain/ports';
import type { InstantPayouts } from './instant-payouts';
import type { PayoutsGate } from './license-check';
import { INSTANT_PAY_ACTION, type Payout } from './payout';
import type { PayoutWorkerRepository } from './payout-worker';

export const TIMESHEET_PAYOUT_FAILED_EVENT = 'timesheet.payout_failed';
export const timesheetPayoutReference = (timesheetId: string) => `timesheet:${timesheetId}`;

export class TimesheetPayouts {
  constructor(
    private readonly timesheets: () => ApprovedTimesheets | undefined,
    private readonly workers: PayoutWorkerRepository,
    private readonly payouts: InstantPayouts,
    private readonly runner: ActionRunner,
    private readonly gate: PayoutsGate,
    private readonly events: EventPublisher,
    private readonly logger: Logger,
  ) {}

  /** Pays the approved timesheet once; undefined when there is nothing to pay here (no license, no pay, not approved). */
  async pay(organizationId: string, timesheetId: string): Promise<Payout | undefined> {
    if (!(await this.gate.allows(organizationId, INSTANT_PAY_ACTION))) return undefined;
    const timesheet = await this.timesheets()?.get(organizationId, timesheetId);
    if (!timesheet || timesheet.payCents <= 0) return undefined;
    try {
      const worker = await this.workers.byReference(organizationId, timesheet.workerId);
      if (!worker)
        throw conflict('worker_not_found', `No payout worker has the reference ${timesheet.workerId} (POST /v1/payouts/workers with that reference)`);
      return await this.payouts.request(organizationId, {
        workerId: worker.id,
        amount: timesheet.payCents,
        currency: timesheet.currency,
        reference: timesheetPayoutReference(timesheetId),
        source: 'timesheet',
        feeBasisPoints: 0,
      });
    } catch (error) {
      if (!isDomainError(error) || error.kind === 'upstream') throw error;
      await this.runner
        .perform(
          {
            organizationId,
            idempotencyKey: `timesheet-payout-${timesheetId}`,
            action: INSTANT_PAY_ACTION,
            step: 'payouts',
            connector: 'none',
            connectionId: null,
            livemode: true,
          },
          () => Promise.reject(error),
        )
        .catch(() => undefined);
      await announce(
        this.events,
        this.logger,
        TIMESHEET_PAYOUT_FAILED_EVENT,
        organizationId,
        {
          timesheet_id: timesheetId,
          worker_id: timesheet.workerId,
          amount: timesheet.payCents,
          currency: timesheet.currency,
          failure_code: error.code,
          failure_message: error.message.slice(0, 300),
        },
        `${timesheetId}-${error.code}`,
      );
      return undefined;
    }
  }
}
