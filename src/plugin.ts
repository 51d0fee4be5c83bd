/**
 * The plugin's entry module and composition root: `activate(host)` builds a tsyringe
 * child container, lets every feature module register into it, mounts the routers the
 * manifest names, and returns what the manifest promises. Nothing else in the code base
 * knows which concrete class implements a port.
 */
import 'reflect-metadata';
import semver from 'semver';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import { JOB_PROCESSORS, type JobProcessor } from './domain/jobs/job-queue';
import { DisposerStack } from './domain/shared/disposer';
import { registerInfrastructure, RATE_LIMIT_STORE, WORKER_HOST, type WorkerHost } from './composition/infrastructure';
import type { CompositionContext, HookHandlerRegistration, PluginModule, RouterKit } from './composition/module';
import { organizationsModule } from './composition/organizations';
import { profileApplicationsModule } from './composition/profile-applications';
import { licensingModule } from './composition/licensing';
import { operationsModule } from './composition/operations';
import { widgetModule } from './composition/widget';
import { reconciliationModule } from './composition/reconciliation';
import { HOOK_DISPATCHER, hooksModule, registerHookDispatch } from './composition/hooks';
import type { HookDispatcher } from './domain/hooks/hook-dispatcher';
import { httpMetrics } from './observability/http-metrics';
import { METRICS, type PluginMetrics } from './observability/metrics';
import { checkReadiness, MOUNTED_ROUTERS, platformModule } from './composition/platform';
import type { HookResult, PluginHost, PluginInstance } from './host/contract';
import { authenticate } from './http/authenticate';
import { jsonBody } from './http/body';
import type { MountedApiRouter } from './http/openapi';
import { CREDENTIAL_VERIFIERS, type CredentialVerifier } from './http/principal';
import { limitFailedAuthentication, rateLimit, type RateLimitStore } from './http/rate-limit';
import { buildRouter, type RouterPolicy } from './http/route';
import { errorHandler } from './http/errors';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from './http/idempotency';
import { requestId } from './http/request-id';
import { accessLog } from './http/access-log';
import { loadManifest } from './manifest/manifest';

/** Every feature area, in registration order. */
export const MODULES: readonly PluginModule[] = [platformModule, organizationsModule, operationsModule, licensingModule, profileApplicationsModule, widgetModule, hooksModule, reconciliationModule];

function routerKit(container: DependencyContainer, context: CompositionContext): RouterKit {
  const verifiers = container.resolveAll<CredentialVerifier>(CREDENTIAL_VERIFIERS);
  const limitStore = container.resolve<RateLimitStore>(RATE_LIMIT_STORE);
  const limiter = rateLimit(limitStore, context.config.rateLimitPerMinute);
  const failedAuthentication = limitFailedAuthentication(limitStore, context.config.rateLimitPerMinute);
  const body = jsonBody(context.config.bodyLimitBytes);
  const policy: RouterPolicy = {
    before: [requestId, accessLog(context.logger), httpMetrics(container.resolve<PluginMetrics>(METRICS))],
    guards: (route) => [
      authenticate(route.auth, verifiers),
      failedAuthentication,
      limiter,
      ...(route.method === 'get' || route.method === 'delete' ? [] : body),
    ],
    limit: limiter,
    onError: errorHandler(context.logger),
    idempotency: container.resolve<IdempotencyStore>(IDEMPOTENCY_STORE),
  };
  return { policy, build: (name, routes) => buildRouter(name, routes, policy) };
}

export async function activate(host: PluginHost): Promise<PluginInstance> {
  const manifest = loadManifest();
  if (!semver.satisfies(host.contractVersion, manifest.engines.host)) {
    throw new Error(`${manifest.id} ${manifest.version} needs host contract ${manifest.engines.host}; the host offers ${host.contractVersion}`);
  }
  const logger = host.logger.child({ plugin: manifest.id });
  const context: CompositionContext = { config: host.config, logger, host, manifest };
  const container = rootContainer.createChildContainer();
  const resources = new DisposerStack();
  const registrations = new DisposerStack();

  registerInfrastructure(container, { ...host, logger }, manifest, resources);
  for (const module of MODULES) module.register(container, context);
  // Every module's hook handlers: the registry (the catalog shows which actions have one) and the gated dispatcher.
  const hooks: HookHandlerRegistration[] = MODULES.flatMap((m) => m.hooks ?? []);
  registerHookDispatch(container, hooks);

  const kit = routerKit(container, context);
  const mounted = container.resolve<MountedApiRouter[]>(MOUNTED_ROUTERS);
  for (const factory of MODULES.flatMap((m) => m.routers ?? [])) {
    const declared = manifest.routers.find((r) => r.name === factory.name);
    if (!declared) throw new Error(`Router "${factory.name}" is not declared in plugin.manifest.json`);
    const api = factory.create(container, kit);
    mounted.push({ mountPath: declared.mountPath, api });
    registrations.add(host.http.mount(declared.mountPath, api.router));
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

  let disposed = false;
  return {
    id: manifest.id,
    version: manifest.version,
    routers: mounted.map((m) => ({ name: m.api.name, mountPath: m.mountPath })),
    hooks: hooks.map((h) => ({ name: h.name, hook: h.hook, action: h.action })),
    queues: manifest.queues
      .filter((q) => processors.some((p) => p.queue === q.name))
      .map((q) => ({ name: q.name, concurrency: q.concurrency })),
    async fireHook(hook, organizationId, payload): Promise<HookResult> {
      // Each handler runs only if the gate (entitlement cache) finds the organization's license for its action active.
      const { handled, skipped, failed, outcomes } = await container.resolve<HookDispatcher>(HOOK_DISPATCHER).fire(hook, organizationId, payload);
      return { handled, skipped, failed, outcomes };
    },
    async startWorkers(options = {}) {
      container.resolve<WorkerHost>(WORKER_HOST).startWorkers(processors, options.concurrency ?? host.config.workerConcurrency);
    },
    readiness: () => checkReadiness(container),
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
