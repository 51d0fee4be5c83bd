/**
 * Action runs: every connector port the hook handlers inject performs its step as a run
 * (recorded before the counterpart is called, succeeded only on its acknowledgment), and
 * the runs API shows them.
 */
import { noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData, registerOperationalPruner } from '../privacy/register';
import { RunRetention } from './domain/run-retention';
import { instanceCachingFactory } from 'tsyringe';
import type { PluginModule } from '../../platform/composition/plugin-module';
import {
  HRIS_CONNECTOR,
  NOTIFICATION_CONNECTOR,
  PAYOUT_CONNECTOR,
  PAYROLL_FILE_CONNECTOR,
  DOWNLOAD_DELIVERY,
  POS_CONNECTOR,
  SMS_CONNECTOR,
  VIDEO_MEETING_CONNECTOR,
} from '../hooks/domain/connectors';
import { CLOCK, type Clock } from '../../kernel/clock';
import { HOOK_REGISTRY, type HookRegistry } from '../hooks/domain/hook-registry';
import { EVENT_PUBLISHER, type EventPublisher } from '../../kernel/events';
import { LOGGER, type Logger } from '../../kernel/logger';
import { PrometheusRunMetrics } from './metrics/prometheus-run-metrics';
import { METRICS, type PluginMetrics } from '../../platform/observability/metrics';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import type { ConnectorResolver } from '../connections/domain/connector-resolver';
import { CONNECTOR_RESOLVER } from '../connections/register';
import { ACTION_RUN_REPOSITORY, type ActionRunRepository } from './domain/action-run';
import { ActionRunner } from './domain/action-runner';
import { SmsOptOuts } from '../sms/domain/sms-opt-outs';
import { RunRecordingConnectors } from './domain/run-recording-connectors';
import { RUN_REPLAYER, RunRetries, type RunReplayer } from './domain/run-retries';
import { StuckRunReconciler } from './domain/stuck-run-reconciler';
import { RECONCILERS, type Reconciler } from '../operations/domain/reconciler';
import { actionRunRoutes } from './http/action-runs-router';
import { KnexActionRunRepository } from './storage/knex-action-run-repository';

export const actionRunsModule: PluginModule = {
  name: 'action-runs',
  register(container, { config }) {
    registerCandidateData(
      container,
      // A run keeps no recipient, body or candidate id: the action, connector, status, timings and the counterpart's reference.
      // A counterpart's error text could still echo an address; runs are deleted with their organization.
      noCandidateData('hi_action_runs', 'Executions of integration actions: action, connector, status, attempts and the counterpart reference'),
    );
    container.register(ACTION_RUN_REPOSITORY, { useFactory: instanceCachingFactory((c) => new KnexActionRunRepository(c.resolve<Database>(DATABASE))) });
    // The daily retention pass prunes completed runs past the deployment's retention (domain/run-retention.ts).
    registerOperationalPruner(container, (c) => new RunRetention(c.resolve<ActionRunRepository>(ACTION_RUN_REPOSITORY), config.actionRunRetention));
    container.register(ActionRunner, {
      useFactory: instanceCachingFactory(
        (c) =>
          new ActionRunner(
            c.resolve<ActionRunRepository>(ACTION_RUN_REPOSITORY),
            c.resolve<EventPublisher>(EVENT_PUBLISHER),
            c.resolve<Logger>(LOGGER),
            () => c.resolve<Clock>(CLOCK).now(),
            new PrometheusRunMetrics(c.resolve<PluginMetrics>(METRICS).registry),
          ),
      ),
    });
    container.register(RunRecordingConnectors, {
      useFactory: instanceCachingFactory(
        (c) =>
          new RunRecordingConnectors(
            c.resolve<ConnectorResolver>(CONNECTOR_RESOLVER),
            c.resolve(ActionRunner),
            (action, step) => {
              if (!c.isRegistered(HOOK_REGISTRY)) return null;
              const handlers = c.resolve<HookRegistry>(HOOK_REGISTRY).handlersFor(action);
              return (handlers.find((h) => h.steps.includes(step)) ?? handlers[0])?.hook ?? null;
            },
            () => (c.isRegistered(SmsOptOuts) ? c.resolve(SmsOptOuts) : undefined),
          ),
      ),
    });
    container.register(RunRetries, {
      useFactory: instanceCachingFactory(
        (c) =>
          new RunRetries(
            c.resolve<ActionRunRepository>(ACTION_RUN_REPOSITORY),
            () => (c.isRegistered(RUN_REPLAYER) ? c.resolveAll<RunReplayer>(RUN_REPLAYER) : []),
            () => c.resolve<Clock>(CLOCK).now(),
          ),
      ),
    });
    // The sweep for runs whose job the queue lost (the reconciliation sweep runs it).
    container.register<Reconciler>(RECONCILERS, {
      useFactory: instanceCachingFactory(
        (c) =>
          new StuckRunReconciler(c.resolve<ActionRunRepository>(ACTION_RUN_REPOSITORY), () =>
            c.isRegistered(RUN_REPLAYER) ? c.resolveAll<RunReplayer>(RUN_REPLAYER) : [],
          ),
      ),
    });
    for (const token of [
      NOTIFICATION_CONNECTOR,
      SMS_CONNECTOR,
      VIDEO_MEETING_CONNECTOR,
      HRIS_CONNECTOR,
      PAYROLL_FILE_CONNECTOR,
      PAYOUT_CONNECTOR,
      POS_CONNECTOR,
      DOWNLOAD_DELIVERY,
    ]) {
      container.register(token, { useToken: RunRecordingConnectors });
    }
  },
  routers: [
    {
      name: 'action-runs',
      create: (container, kit) =>
        kit.build('action-runs', actionRunRoutes(container.resolve<ActionRunRepository>(ACTION_RUN_REPOSITORY), container.resolve(RunRetries))),
    },
  ],
};
