/**
 * The plugin's entry module and composition root: `activate(host)` builds a tsyringe
 * child container, lets every feature module register into it, mounts the routers the
 * manifest names, and returns what the manifest promises. Nothing else in the code base
 * knows which concrete class implements a port.
 */
import 'reflect-metadata';
import semver from 'semver';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { JOB_PROCESSORS, type JobProcessor } from './kernel/job-queue';
import { DisposerStack } from './kernel/disposer';
import { registerInfrastructure, RATE_LIMIT_STORE, WORKER_HOST, type WorkerHost } from './composition/infrastructure';
import type { CompositionContext, HookHandlerRegistration, PluginModule, RouterKit } from './platform/composition/plugin-module';
import { organizationsModule } from './features/organizations/register';
import { profileApplicationsModule } from './features/applications/register';
import { profilesModule } from './features/profiles/register';
import { connectModule } from './features/connect/register';
import { sandboxProviderModule } from './features/sandbox-provider/register';
import { licensingModule } from './features/licensing/register';
import { BUILT_IN_ACTION_STEPS, BUILT_IN_ACTIONS } from './features/licensing/domain/runnable-actions';
import { billingModule } from './features/billing/register';
import { BillingService } from './features/billing/domain/billing-service';
import { operationsModule } from './features/operations/register';
import { widgetModule } from './features/widget/register';
import { reconciliationModule } from './features/operations/register-reconciliation';
import { HOOK_DISPATCHER, hooksModule, registerHookDispatch } from './features/hooks/register';
import { webhooksModule } from './features/webhooks/register';
import { connectionsModule } from './features/connections/register';
import { actionRunsModule } from './features/action-runs/register';
import { credentialChecksModule } from './features/credential-checks/register';
import { credentialDocumentsModule } from './features/credential-documents/register';
import { complianceModule } from './features/compliance/register';
import { listingsModule } from './features/listings/register';
import { jobFeedsModule } from './features/job-feeds/register';
import { jobDistributionModule } from './features/job-distribution/register';
import { candidateExportsModule } from './features/candidate-exports/register';
import { sourcingModule } from './features/sourcing/register';
import { statusUpdatesModule } from './features/status-updates/register';
import { callSheetsModule } from './features/call-sheets/register';
import { shiftsModule } from './features/shifts/register';
import { timesheetsModule } from './features/timesheets/register';
import { verificationsModule } from './features/verifications/register';
import { smsModule } from './features/sms/register';
import { payoutsModule } from './features/payouts/register';
import { payrollModule } from './features/payroll/register';
import { volunteersModule } from './features/volunteers/register';
import { cachingModule } from './composition/caching';
import type { HookDispatcher } from './features/hooks/domain/hook-dispatcher';
import { httpMetrics } from './platform/observability/http-metrics';
import { METRICS, type PluginMetrics } from './platform/observability/metrics';
import { privacyModule } from './features/privacy/register';
import { backgroundChecksModule } from './features/background-checks/register';
import { auditModule } from './features/audit/register';
import { AUDIT_WRITER, type AuditWriter } from './features/audit/domain/audit-writer';
import { auditKeepsValues, auditRecorder } from './features/audit/http/audit-recorder';
import { schedulingModule } from './features/scheduling/register';
import { availabilityModule } from './features/availability/register';
import { jobImportModule } from './features/job-import/register';
import { boardApplicationsModule } from './features/board-applications/register';
import { esignModule } from './features/esign/register';
import { deriveKey } from './platform/security/key-derivation';
import { CLOCK, type Clock } from './kernel/clock';
import { checkReadiness, MOUNTED_ROUTERS, platformModule } from './composition/platform';
import type { ActivateOptions, HookResult, HttpRouter, MountedRouterInfo, OfferedRouter, PluginHost, PluginInstance, PluginRole } from './host/contract';
import { HookIntake } from './features/hooks/domain/hook-intake';
import { checkHostRequirements, hostPath } from './composition/host-requirements';
import { warnAboutRetiredHostFields } from './composition/retired-host-fields';
import { hostOrganizations } from './features/organizations/host-organizations';
import { listenToHostHooks } from './features/hooks/host-hook-bus';
import { authenticate } from './platform/http/authenticate';
import { jsonBody } from './platform/http/body';
import type { MountedApiRouter } from './platform/http/openapi';
import { CREDENTIAL_VERIFIERS, type CredentialVerifier } from './platform/http/principal';
import { rateLimit, StoreHealth, type RateLimitStore } from './platform/http/rate-limit';
import { AuthenticationThrottle } from './platform/http/auth-throttle';
import { rateLimitBudgets } from './platform/http/rate-limit-budgets';
import { buildRouter, type RouterPolicy } from './platform/http/route';
import { errorHandler } from './platform/http/errors';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from './platform/http/idempotency';
import { requestId } from './platform/http/request-id';
import { oncePerRequest } from './platform/http/once-per-request';
import { accessLog } from './platform/http/access-log';
import { loadManifest } from './platform/manifest/manifest';
import { untilDisposed } from './platform/http/until-disposed';
import { employeesModule } from './features/employees/register';

/**
 * Every feature area, in registration order: webhooks early (it wraps EVENT_PUBLISHER in the
 * event log before any module resolves it), billing after licensing (it re-registers ENTITLEMENTS), caching last (it wraps the ports the others registered).
 */
export const MODULES: readonly PluginModule[] = [
  platformModule,
  webhooksModule,
  organizationsModule,
  operationsModule,
  licensingModule,
  billingModule,
  profilesModule,
  profileApplicationsModule,
  connectModule,
  sandboxProviderModule,
  widgetModule,
  hooksModule,
  connectionsModule,
  actionRunsModule,
  statusUpdatesModule,
  callSheetsModule,
  timesheetsModule,
  verificationsModule,
  smsModule,
  payoutsModule,
  listingsModule,
  jobFeedsModule,
  jobDistributionModule,
  credentialChecksModule,
  credentialDocumentsModule,
  backgroundChecksModule,
  complianceModule,
  reconciliationModule,
  privacyModule,
  auditModule,
  schedulingModule,
  jobImportModule,
  boardApplicationsModule,
  esignModule,
  cachingModule,
  availabilityModule,
  shiftsModule,
  payrollModule,
  candidateExportsModule,
  sourcingModule,
  employeesModule,
  volunteersModule,
];

function routerKit(container: DependencyContainer, context: CompositionContext): RouterKit {
  const verifiers = container.resolveAll<CredentialVerifier>(CREDENTIAL_VERIFIERS);
  const limitStore = container.resolve<RateLimitStore>(RATE_LIMIT_STORE);
  const budgets = rateLimitBudgets(context.config);
  const health = new StoreHealth(context.logger, limitStore);
  const apiLimit = rateLimit(limitStore, budgets.api, health);
  const publicLimit = rateLimit(limitStore, budgets.public, health);
  const throttle = new AuthenticationThrottle(limitStore, budgets.authFailures, health);
  const body = jsonBody(context.config.bodyLimitBytes);
  const policy: RouterPolicy = {
    before: [oncePerRequest(requestId, accessLog(context.logger), httpMetrics(container.resolve<PluginMetrics>(METRICS)))],
    guards: (route) => [
      authenticate(route.auth, verifiers, throttle),
      // Health checks are never limited; public reads have their own per-IP budget.
      ...(route.rateLimit === false ? [] : [route.auth.length === 0 ? publicLimit : apiLimit]),
      ...(route.method === 'get' || route.method === 'delete' ? [] : body),
    ],
    limit: rateLimit(limitStore, budgets.connect, health),
    limitPublic: publicLimit,
    throttle,
    onError: errorHandler(context.logger),
    idempotency: container.resolve<IdempotencyStore>(IDEMPOTENCY_STORE),
    auditValues: auditKeepsValues,
    audit: auditRecorder(
      container.resolve<AuditWriter>(AUDIT_WRITER),
      context.logger,
      () => container.resolve<Clock>(CLOCK).now(),
      deriveKey(context.config.secretKey, 'audit-pseudonyms'),
    ),
  };
  return { policy, build: (name, routes) => buildRouter(name, routes, policy) };
}

const pathDepth = (path: string) => path.split('/').filter(Boolean).length;

export async function activate(host: PluginHost, options: ActivateOptions = {}): Promise<PluginInstance> {
  const manifest = loadManifest();
  if (!semver.satisfies(host.contractVersion, manifest.engines.host)) {
    throw new Error(`${manifest.id} ${manifest.version} needs host contract ${manifest.engines.host}; the host offers ${host.contractVersion}`);
  }
  const role: PluginRole = options.role ?? 'all';
  checkHostRequirements(host, role);
  const logger = host.logger.child({ plugin: manifest.id });
  warnAboutRetiredHostFields(host, logger);
  const context: CompositionContext = { config: host.config, logger, host, manifest };
  const container = rootContainer.createChildContainer();
  const resources = new DisposerStack();
  const registrations = new DisposerStack();

  registerInfrastructure(container, { ...host, logger }, manifest, resources);
  container.register(BUILT_IN_ACTIONS, { useValue: new Set(MODULES.flatMap((m) => m.builtInActions ?? [])) });
  container.register(BUILT_IN_ACTION_STEPS, { useValue: new Map(MODULES.flatMap((m) => Object.entries(m.builtInActionSteps ?? {}))) });
  for (const module of MODULES) module.register(container, context);
  // Every module's hook handlers: the registry (the catalog shows which actions have one) and the gated dispatcher.
  const hooks: HookHandlerRegistration[] = MODULES.flatMap((m) => m.hooks ?? []);
  registerHookDispatch(container, hooks);

  // Set first thing in dispose(): every router then answers 503 plugin_disposed (http/until-disposed.ts).
  let disposed = false;
  const kit = routerKit(container, context);
  const mounted = container.resolve<MountedApiRouter[]>(MOUNTED_ROUTERS);
  const mountedOnHost: MountedRouterInfo[] = [];
  const operations: OfferedRouter[] = [];
  const toMount: { fullPath: string; router: HttpRouter }[] = [];
  for (const factory of MODULES.flatMap((m) => m.routers ?? [])) {
    const declared = manifest.routers.find((r) => r.name === factory.name);
    if (!declared) throw new Error(`Router "${factory.name}" is not declared in plugin.manifest.json`);
    // The worker role serves no API; it still builds what it offers (health, metrics) for the host to expose.
    if (role === 'worker' && !declared.offered) continue;
    const api = factory.create(container, kit);
    const router = untilDisposed(api.router as unknown as HttpRouter, () => disposed);
    if (declared.offered) operations.push({ name: declared.name, mountPath: declared.mountPath, description: declared.description ?? '', router });
    if (role === 'worker' || (declared.offered && options.operations !== 'mount')) continue;
    const fullPath = hostPath(host.config.mountPath, declared.mountPath);
    mounted.push({ mountPath: declared.mountPath, api });
    mountedOnHost.push({ name: api.name, mountPath: fullPath });
    toMount.push({ fullPath, router });
  }
  // Most specific mount path first: a request is offered to its own router before the ones
  // mounted above it ('/', '/v1'), which it would otherwise walk through in vain.
  for (const { fullPath, router } of toMount.sort((a, b) => pathDepth(b.fullPath) - pathDepth(a.fullPath))) {
    registrations.add(host.http!.mount(fullPath, router));
  }

  for (const hook of hooks) {
    if (!manifest.hooks.some((h) => h.name === hook.name && h.hook === hook.hook && h.action === hook.action)) {
      throw new Error(`Hook handler "${hook.name}" (${hook.hook} gated by ${hook.action}) is not declared in plugin.manifest.json`);
    }
  }
  const processors: JobProcessor[] = MODULES.flatMap((m) => m.processors?.(container) ?? []);
  for (const processor of processors) {
    if (!manifest.queues.some((q) => q.name === processor.queue)) {
      throw new Error(`Queue "${processor.queue}" has a processor but is not declared in plugin.manifest.json`);
    }
  }
  container.register(JOB_PROCESSORS, { useValue: processors });

  for (const module of MODULES) {
    const stop = await module.start?.(container, context);
    if (stop) registrations.add(stop);
  }

  // Hooks reach the handlers from the host's bus and from fireHook; one event through both runs once.
  const intake = new HookIntake(
    (hook, organizationId, payload) => container.resolve<HookDispatcher>(HOOK_DISPATCHER).fire(hook, organizationId, payload),
    logger,
  );
  for (const stop of listenToHostHooks(
    host.hooks,
    hooks.map((h) => h.hook),
    intake,
    logger,
  ))
    registrations.add(stop);

  const workerHost = container.resolve<WorkerHost>(WORKER_HOST);
  let workersStarted = false;
  const startWorkers = (concurrency: number | undefined) => {
    // Once per activation: a second set of workers would double the concurrency.
    if (workersStarted) return;
    workersStarted = true;
    workerHost.startWorkers(processors, concurrency);
  };
  if (role === 'worker') startWorkers(host.config.workerConcurrency);

  return {
    id: manifest.id,
    version: manifest.version,
    role,
    routers: mountedOnHost,
    operations,
    hooks: hooks.map((h) => ({ name: h.name, hook: h.hook, action: h.action })),
    queues: manifest.queues.filter((q) => processors.some((p) => p.queue === q.name)).map((q) => ({ name: q.name, concurrency: q.concurrency })),
    organizations: hostOrganizations(container),
    async fireHook(hook, organizationId, payload): Promise<HookResult> {
      // Each handler runs only if the gate (entitlement cache) finds the organization's license for its action active.
      let result: HookResult | undefined;
      try {
        const { handled, skipped, failed, outcomes } = await intake.fire('call', hook, organizationId, payload);
        result = { handled, skipped, failed, outcomes };
        return result;
      } finally {
        // The host's own acts are audited too: which hook, for whom, what it started (no payload values).
        await container
          .resolve<AuditWriter>(AUDIT_WRITER)
          .record({
            organizationId,
            actorType: 'host',
            actor: 'host',
            ip: null,
            requestId: null,
            action: `hook:${hook}`,
            method: 'HOOK',
            target: hook,
            status: !result ? 500 : result.failed.length > 0 ? 207 : 200,
            before: null,
            after: {
              request_fields: Object.keys(payload ?? {}).sort(),
              response: result ? { handled: result.handled, skipped: result.skipped, failed: result.failed } : null,
            },
            at: container.resolve<Clock>(CLOCK).now(),
          })
          .catch((error: Error) => logger.error({ hook, err: error.message }, 'could not record an audit event'));
      }
    },
    async startWorkers(startOptions = {}) {
      if (role === 'api') throw new Error('The api role runs no workers: start a process with the worker role');
      startWorkers(startOptions.concurrency ?? host.config.workerConcurrency);
    },
    async reportInvoicePayment(invoiceId, outcome) {
      const billing = container.resolve(BillingService);
      if (outcome.status === 'paid') await billing.markPaid(invoiceId, outcome.reference ?? 'host');
      else if (outcome.status === 'failed') await billing.reportFailure(invoiceId, outcome.reason);
      else await billing.markUncollectible(invoiceId);
    },
    readiness: async () => (disposed ? { ok: false, checks: { plugin: 'disposed' } } : checkReadiness(container)),
    async dispose() {
      if (disposed) return;
      disposed = true;
      await registrations.disposeAll();
      await resources.disposeAll();
      await container.dispose();
    },
  };
}

export default activate;
