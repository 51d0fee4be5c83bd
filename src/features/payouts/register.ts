/**
 * Payouts (`payouts.kyc_verification`, `payouts.instant_pay`): workers' KYC onboarding through
 * the organization's payouts connection (Stripe Connect), their KYC state from the provider's
 * webhooks, and instant payouts. Both tables hold workers' personal data and are registered
 * like candidates' (matched by the worker's email or phone).
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { CLOCK, type Clock } from '../../kernel/clock';
import { EVENT_PUBLISHER, type EventPublisher } from '../../kernel/events';
import { JOB_QUEUE, type JobQueue } from '../../kernel/job-queue';
import { LOGGER, type Logger } from '../../kernel/logger';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { ActionRunner } from '../action-runs/domain/action-runner';
import type { ConnectorResolver } from '../connections/domain/connector-resolver';
import { CONNECTOR_RESOLVER } from '../connections/register';
import {
  NOTIFICATION_CONNECTOR,
  PAYOUT_CONNECTOR,
  SMS_CONNECTOR,
  type NotificationConnector,
  type PayoutConnector,
  type SmsConnector,
} from '../hooks/domain/connectors';
import { HookGate } from '../hooks/domain/hook-gate';
import { candidateStore, type CandidateSubject } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { InstantPayouts } from './domain/instant-payouts';
import { INSTANT_PAY_ACTION, PAYOUT_REPOSITORY, type PayoutRepository } from './domain/payout';
import { PayoutWebhooks } from './domain/payout-webhooks';
import { KYC_ACTION, PAYOUT_WORKER_REPOSITORY, type PayoutWorkerRepository } from './domain/payout-worker';
import { PayoutWorkers } from './domain/payout-workers';
import { TimesheetPayouts } from './domain/timesheet-payouts';
import { KycHireHandler } from './domain/kyc-hire-handler';
import { declarationOf } from '../hooks/domain/hook-handler';
import { TIMESHEET_PAYOUT_QUEUE, TimesheetPayoutProcessor, timesheetPayoutJobId } from './jobs/timesheet-payout';
import { APPROVED_TIMESHEETS, TIMESHEET_APPROVAL_LISTENERS, type ApprovedTimesheets, type TimesheetApprovalListeners } from '../timesheets/domain/ports';
import { payoutRoutes } from './http/payouts-router';
import { KnexPayoutRepository } from './storage/knex-payout-repository';
import { KnexPayoutWorkerRepository } from './storage/knex-payout-worker-repository';

export const payoutsModule: PluginModule = {
  name: 'payouts',
  builtInActions: [KYC_ACTION, INSTANT_PAY_ACTION],
  register(container) {
    const db = container.resolve<Database>(DATABASE);
    container.register(PAYOUT_WORKER_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexPayoutWorkerRepository(db)) });
    container.register(PAYOUT_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexPayoutRepository(db)) });
    const now = (c: { resolve<T>(token: symbol): T }) => () => c.resolve<Clock>(CLOCK).now();
    container.register(PayoutWorkers, {
      useFactory: instanceCachingFactory(
        (c) =>
          new PayoutWorkers(
            c.resolve<PayoutWorkerRepository>(PAYOUT_WORKER_REPOSITORY),
            {
              payouts: c.resolve<PayoutConnector>(PAYOUT_CONNECTOR),
              email: c.resolve<NotificationConnector>(NOTIFICATION_CONNECTOR),
              sms: c.resolve<SmsConnector>(SMS_CONNECTOR),
            },
            c.resolve(HookGate),
            c.resolve<EventPublisher>(EVENT_PUBLISHER),
            c.resolve<Logger>(LOGGER),
            now(c),
          ),
      ),
    });
    container.register(InstantPayouts, {
      useFactory: instanceCachingFactory(
        (c) =>
          new InstantPayouts(
            c.resolve<PayoutRepository>(PAYOUT_REPOSITORY),
            c.resolve<PayoutWorkerRepository>(PAYOUT_WORKER_REPOSITORY),
            c.resolve<PayoutConnector>(PAYOUT_CONNECTOR),
            c.resolve(ActionRunner),
            c.resolve(HookGate),
            c.resolve<EventPublisher>(EVENT_PUBLISHER),
            c.resolve<Logger>(LOGGER),
            now(c),
          ),
      ),
    });
    container.register(PayoutWebhooks, {
      useFactory: instanceCachingFactory(
        (c) =>
          new PayoutWebhooks(
            (organizationId, connectionId) => c.resolve<ConnectorResolver>(CONNECTOR_RESOLVER).connectionPort(organizationId, connectionId, 'payouts'),
            c.resolve(PayoutWorkers),
            c.resolve(InstantPayouts),
          ),
      ),
    });
    container.register(TimesheetPayouts, {
      useFactory: instanceCachingFactory(
        (c) =>
          new TimesheetPayouts(
            () => (c.isRegistered(APPROVED_TIMESHEETS) ? c.resolve<ApprovedTimesheets>(APPROVED_TIMESHEETS) : undefined),
            c.resolve<PayoutWorkerRepository>(PAYOUT_WORKER_REPOSITORY),
            c.resolve(InstantPayouts),
            c.resolve(ActionRunner),
            c.resolve(HookGate),
            c.resolve<EventPublisher>(EVENT_PUBLISHER),
            c.resolve<Logger>(LOGGER),
          ),
      ),
    });
    container.register(TimesheetPayoutProcessor, { useFactory: instanceCachingFactory((c) => new TimesheetPayoutProcessor(c.resolve(TimesheetPayouts))) });
    // An approved timesheet becomes a payout job (its id names the timesheet: added twice, it is one job).
    if (container.isRegistered(TIMESHEET_APPROVAL_LISTENERS))
      container.resolve<TimesheetApprovalListeners>(TIMESHEET_APPROVAL_LISTENERS).add({
        approved: (organizationId, timesheetId) =>
          container
            .resolve<JobQueue>(JOB_QUEUE)
            .add(TIMESHEET_PAYOUT_QUEUE, 'pay', { organizationId, timesheetId }, { jobId: timesheetPayoutJobId(timesheetId) }),
      });
    const workersOf = (subject: CandidateSubject) =>
      db('hi_payout_workers')
        .select('id')
        .where({ organization_id: subject.organizationId })
        .where((w) => w.whereIn('email', [...subject.emails]).orWhereIn('phone', [...subject.phones]));
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'payout_workers',
          description:
            "Workers paid through the payouts provider (email, phone, country, the provider's account id and KYC state), matched by the email or phone given",
          table: 'hi_payout_workers',
          where: (q, s) => q.whereIn('id', workersOf(s)),
        }),
      ),
    );
    registerCandidateData(
      container,
      candidateStore(
        tableStore(db, {
          name: 'payouts',
          description: "Payouts to a worker (amount, fee, currency, the provider's transfer and payout ids, status), found through the worker's email or phone",
          table: 'hi_payouts',
          where: (q, s) => q.where({ organization_id: s.organizationId }).whereIn('worker_id', workersOf(s)),
        }),
      ),
    );
  },
  processors: (container: DependencyContainer) => [container.resolve(TimesheetPayoutProcessor)],
  // No steps declared: the action is also built in (POST /v1/payouts/workers) and is sold without waiting for a connection.
  hooks: [
    (({ name, hook, action }) => ({ name, hook, action, resolve: (c: DependencyContainer) => c.resolve(KycHireHandler) }))(declarationOf(KycHireHandler)),
  ],
  routers: [
    {
      name: 'payouts',
      create: (container, kit) =>
        kit.build('payouts', payoutRoutes(container.resolve(PayoutWorkers), container.resolve(InstantPayouts), container.resolve(PayoutWebhooks))),
    },
  ],
};
