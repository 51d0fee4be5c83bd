/** Operations endpoints every installation has: liveness, readiness and the OpenAPI document. */
import type { RedisConnection } from '../platform/queue/redis';
import type { DependencyContainer } from 'tsyringe';
import type { ReadinessReport } from '../host/contract';
import { buildOpenApiDocument, type MountedApiRouter } from '../platform/http/openapi';
import { healthRoutes } from '../features/operations/http/health-router';
import { openApiRoutes } from '../features/operations/http/openapi-router';
import { IDEMPOTENCY_STORE } from '../platform/http/idempotency';
import { KnexIdempotencyStore } from '../platform/http/idempotency-store';
import { OutboxRelay } from '../platform/queue/outbox-relay';
import type { Database } from '../platform/database/database';
import { DATABASE } from '../platform/database/tokens';
import { CONFIG, MANIFEST, REDIS_REQUEST } from './infrastructure';
import type { PluginModule } from '../platform/composition/plugin-module';
import type { Config } from '../kernel/config';
import type { Manifest } from '../platform/manifest/manifest';
import { LOGGER, type Logger } from '../kernel/logger';

/** Filled by activate() once every router is built; read lazily by the OpenAPI route. */
export const MOUNTED_ROUTERS = Symbol('MountedRouters');

/** Never throws: a check that cannot run (a container being disposed, say) is reported as unavailable. */
export async function checkReadiness(container: DependencyContainer): Promise<ReadinessReport> {
  try {
    return await runChecks(container);
  } catch (error) {
    return { ok: false, checks: { plugin: `unavailable: ${(error as Error).message}` } };
  }
}

async function runChecks(container: DependencyContainer): Promise<ReadinessReport> {
  const checks: ReadinessReport['checks'] = {};
  const timeout = <T>(promise: Promise<T>) =>
    Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), 2000).unref())]);
  try {
    await timeout(container.resolve<Database>(DATABASE).raw('select 1'));
    checks.database = 'ok';
  } catch (error) {
    checks.database = `unavailable: ${(error as Error).message}`;
  }
  if (container.isRegistered(REDIS_REQUEST)) {
    try {
      await timeout(container.resolve<RedisConnection>(REDIS_REQUEST).ping());
      checks.redis = 'ok';
    } catch (error) {
      checks.redis = `unavailable: ${(error as Error).message}`;
    }
  }
  const ok = Object.values(checks).every((c) => c === 'ok');
  if (!ok) container.resolve<Logger>(LOGGER).warn({ checks }, 'not ready');
  return { ok, checks };
}

export const platformModule: PluginModule = {
  name: 'platform',
  register(container) {
    container.register(MOUNTED_ROUTERS, { useValue: [] as MountedApiRouter[] });
    container.registerSingleton(IDEMPOTENCY_STORE, KnexIdempotencyStore);
  },
  /** The outbox relay runs in every process: API, worker and embedded. */
  async start(container) {
    return container.resolve(OutboxRelay).start();
  },
  routers: [
    {
      name: 'health',
      create: (container, kit) =>
        kit.build(
          'health',
          healthRoutes(() => checkReadiness(container)),
        ),
    },
    {
      name: 'openapi',
      create: (container, kit) => {
        const config = container.resolve<Config>(CONFIG);
        let document: object | undefined;
        return kit.build(
          'openapi',
          openApiRoutes(() => {
            document ??= buildOpenApiDocument(container.resolve<MountedApiRouter[]>(MOUNTED_ROUTERS), {
              version: container.resolve<Manifest>(MANIFEST).version,
              serverUrl: config.baseUrl,
            });
            return document;
          }),
        );
      },
    },
  ],
};
