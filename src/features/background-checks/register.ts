/**
 * Background checks through a vendor (Checkr's shape): the run_check, route_verification and
 * continuous_monitoring hook handlers, the checks listing policies order when an application
 * arrives, the signed result webhook, FCRA adverse action, and the check records (candidate
 * data: registered with the privacy registry).
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { JOB_QUEUE, type JobQueue } from '../../kernel/job-queue';
import { APPLICATION_REPOSITORY, type ApplicationRepository } from '../applications/domain/ports';
import { SUBMISSION_FOLLOW_UPS, type SubmissionFollowUps } from '../applications/domain/submission-follow-ups';
import { VENDOR_CHECK_OUTCOMES, type VendorCheckOutcomes } from '../credential-checks/domain/vendor-check-outcomes';
import { ENTITLEMENTS, type Entitlements } from '../licensing/domain/entitlements';
import { LISTING_BACKGROUND_CHECK_POLICIES, type ListingBackgroundCheckPolicies } from '../listings/domain/background-check-policy';
import { SubmissionBackgroundChecks } from './domain/submission-background-checks';
import { SubmissionCheckOrderProcessor } from './jobs/submission-check-order';
import { SubmissionOrderReplayer } from './domain/submission-order-replayer';
import { knexExhaustOrderRun, knexFailedOrderRuns, knexOrderFailures } from './storage/knex-failed-order-runs';
import { ACTION_RUN_REPOSITORY, type ActionRunRepository } from '../action-runs/domain/action-run';
import { RUN_REPLAYER } from '../action-runs/domain/run-retries';
import type { PluginModule, HookHandlerRegistration } from '../../platform/composition/plugin-module';
import { CLOCK, type Clock } from '../../kernel/clock';
import { EVENT_PUBLISHER, type EventPublisher } from '../../kernel/events';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { buildRouter } from '../../platform/http/route';
import { ActionRunner } from '../action-runs/domain/action-runner';
import type { ConnectorResolver } from '../connections/domain/connector-resolver';
import { CONNECTOR_RESOLVER } from '../connections/register';
import { NOTIFICATION_CONNECTOR, type NotificationConnector } from '../hooks/domain/connectors';
import { candidateStore, noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { AdverseActionService } from './domain/adverse-action-service';
import { BACKGROUND_CHECK_REPOSITORY, CONTINUOUS_MONITORING_ACTION, type BackgroundCheckRepository } from './domain/background-check';
import { BACKGROUND_CHECK_REQUESTED_HOOK, BackgroundCheckService } from './domain/background-check-service';
import { BackgroundCheckRequestHandler, ContinuousMonitoringHandler, REQUEST_ACTIONS } from './domain/background-check-handlers';
import { VendorSteps } from './domain/vendor-steps';
import { backgroundCheckRoutes, VENDOR_WEBHOOK_OPERATION } from './http/background-checks-router';
import { rawJsonBody } from './http/raw-json-body';
import { KnexBackgroundChecks } from './storage/knex-background-checks';

const BODY_LIMIT = Symbol('BackgroundCheckWebhookBodyLimit');

const HOOKS: HookHandlerRegistration[] = [
  ...REQUEST_ACTIONS.map(({ action, name }): HookHandlerRegistration => ({
    name,
    hook: BACKGROUND_CHECK_REQUESTED_HOOK,
    action,
    steps: ['background_checks'],
    resolve: (c) => new BackgroundCheckRequestHandler(c.resolve(BackgroundCheckService), action),
  })),
  {
    name: 'continuous-monitoring-enroll',
    hook: 'candidate.hired',
    action: CONTINUOUS_MONITORING_ACTION,
    steps: ['background_checks'],
    resolve: (c) => new ContinuousMonitoringHandler(c.resolve(BackgroundCheckService)),
  },
];

export const backgroundChecksModule: PluginModule = {
  name: 'background-checks',
  register(container, { config }) {
    const db = () => container.resolve<Database>(DATABASE);
    container.register(BODY_LIMIT, { useValue: config.bodyLimitBytes });
    container.register<BackgroundCheckRepository>(BACKGROUND_CHECK_REPOSITORY, {
      useFactory: instanceCachingFactory((c) => new KnexBackgroundChecks(c.resolve<Database>(DATABASE))),
    });
    container.register(BackgroundCheckService, {
      useFactory: instanceCachingFactory(
        (c) =>
          new BackgroundCheckService(
            c.resolve<BackgroundCheckRepository>(BACKGROUND_CHECK_REPOSITORY),
            new VendorSteps(c.resolve<ConnectorResolver>(CONNECTOR_RESOLVER), c.resolve(ActionRunner)),
            c.resolve<EventPublisher>(EVENT_PUBLISHER),
            () => c.resolve<Clock>(CLOCK).now(),
          ),
      ),
    });
    container.register(AdverseActionService, {
      useFactory: instanceCachingFactory(
        (c) =>
          new AdverseActionService(
            c.resolve(BackgroundCheckService),
            c.resolve<BackgroundCheckRepository>(BACKGROUND_CHECK_REPOSITORY),
            c.resolve<NotificationConnector>(NOTIFICATION_CONNECTOR),
            c.resolve<EventPublisher>(EVENT_PUBLISHER),
            () => c.resolve<Clock>(CLOCK).now(),
          ),
      ),
    });
    const submissionChecks = instanceCachingFactory(
      (c) =>
        new SubmissionBackgroundChecks({
          policies: c.resolve<ListingBackgroundCheckPolicies>(LISTING_BACKGROUND_CHECK_POLICIES),
          entitlements: c.resolve<Entitlements>(ENTITLEMENTS),
          queue: () => c.resolve<JobQueue>(JOB_QUEUE),
          service: () => c.resolve(BackgroundCheckService),
          checks: c.resolve<BackgroundCheckRepository>(BACKGROUND_CHECK_REPOSITORY),
          application: (id) => c.resolve<ApplicationRepository>(APPLICATION_REPOSITORY).findById(id),
          failedOrders: knexFailedOrderRuns(db),
          failures: knexOrderFailures(db),
          now: () => c.resolve<Clock>(CLOCK).now(),
          exhaustRun: async (organizationId, key) => {
            const id = await knexExhaustOrderRun(db)(organizationId, key, c.resolve<Clock>(CLOCK).now());
            return id ? c.resolve<ActionRunRepository>(ACTION_RUN_REPOSITORY).find(organizationId, id) : undefined;
          },
          events: c.resolve<EventPublisher>(EVENT_PUBLISHER),
        }),
    );
    // A failed automatic order's run is retried by queueing its application's order job again.
    container.register(RUN_REPLAYER, {
      useFactory: instanceCachingFactory(
        (c) =>
          new SubmissionOrderReplayer(
            () => c.resolve<JobQueue>(JOB_QUEUE),
            (id) => c.resolve<ApplicationRepository>(APPLICATION_REPOSITORY).findById(id),
          ),
      ),
    });
    container.register(SubmissionBackgroundChecks, { useFactory: submissionChecks });
    // Applications (pipeline delivery) and credential checks reach it through their own ports.
    container.register<SubmissionFollowUps>(SUBMISSION_FOLLOW_UPS, { useFactory: (c) => c.resolve(SubmissionBackgroundChecks) });
    container.register<VendorCheckOutcomes>(VENDOR_CHECK_OUTCOMES, { useFactory: (c) => c.resolve(SubmissionBackgroundChecks) });
    registerCandidateData(
      container,
      // Found by the email the host gave the check (the vendor's invitation went there); the vendor keeps its own copy of the report.
      candidateStore(
        tableStore(db(), {
          name: 'background_checks',
          description:
            "Background checks ordered from the vendor: the candidate's email and name, the vendor's ids, the report's status and result, the adverse action",
          table: 'hi_background_checks',
          where: (q, s) =>
            q.where({ organization_id: s.organizationId }).whereIn(
              'candidate_email',
              s.emails.map((e) => e.toLowerCase()),
            ),
        }),
      ),
    );
    registerCandidateData(
      container,
      noCandidateData(
        'hi_background_check_order_failures',
        "Automatic orders that failed: the application's and the run's ids, the connector and error code (goes with its application)",
      ),
    );
    registerCandidateData(
      container,
      noCandidateData('hi_background_check_events', 'The vendor webhook event ids already applied (replay safety): ids and types only'),
    );
  },
  hooks: HOOKS,
  processors: (container: DependencyContainer) => [container.resolve(SubmissionCheckOrderProcessor)],
  routers: [
    {
      name: 'background-checks',
      create: (container, kit) => {
        // The vendor's webhook is verified over its raw bytes: its own body parser keeps them.
        const raw = rawJsonBody(container.resolve<number>(BODY_LIMIT));
        const policy = {
          ...kit.policy,
          guards: (route: Parameters<typeof kit.policy.guards>[0]) =>
            route.operationId === VENDOR_WEBHOOK_OPERATION ? [...kit.policy.guards({ ...route, method: 'get' }), ...raw] : kit.policy.guards(route),
        };
        return buildRouter(
          'background-checks',
          backgroundCheckRoutes(container.resolve(BackgroundCheckService), container.resolve(AdverseActionService)),
          policy,
        );
      },
    },
  ],
};
