/**
 * `serve` and `worker`: the two process roles, each with an ordered graceful shutdown on
 * SIGTERM/SIGINT: stop taking work, finish what is in flight, close queues, Redis and the
 * database, exit 0.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { notFoundHandler } from '../../platform/http/errors';
import { requestId } from '../../platform/http/request-id';
import { loadConfig, type Config } from '../../kernel/config';
import type { Logger } from '../../kernel/logger';
import { errorFields } from '../../platform/logging/error-fields';
import { createLogger } from '../../platform/logging/pino-logger';
import { acquireEmbeddedLock } from './embedded-lock';
import { drainable } from './draining';
import { demoEnabled, ensureDemoData, licenseDemo, type DemoCredentials } from '../demo/demo-data';
import { operatorServices } from '../cli/operator-services';
import { createStandaloneHost, type StandaloneHost } from './standalone-host';

/**
 * On the first SIGTERM/SIGINT: run `stop` (which stops taking work, drains and closes),
 * exit 0 when it is done, or 1 when it fails or takes longer than the timeout. A second
 * signal (a second Ctrl-C) exits at once.
 */
function onShutdown(logger: Logger, timeoutSeconds: number, stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal, timeoutSeconds }, 'shutting down: finishing in-flight work');
    const timer = setTimeout(() => {
      logger.error({ timeoutSeconds }, 'shutdown timed out; exiting with work unfinished');
      process.exit(1);
    }, timeoutSeconds * 1000);
    timer.unref();
    stop().then(
      () => {
        logger.info({}, 'shut down cleanly');
        process.exit(0);
      },
      (error) => {
        logger.error({ err: errorFields(error) }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('SIGINT', () => handler('SIGINT'));
}

/** Colored human-readable logs for a developer at a terminal; JSON everywhere else (files, containers, CI). */
function prettyLogs(config: Config): boolean {
  return config.env === 'development' && process.stdout.isTTY === true;
}

/** This process's own address, for calls to itself (a wildcard bind answers on loopback). */
function localUrl(server: Server): string {
  const address = server.address() as AddressInfo;
  const host = ['0.0.0.0', '::'].includes(address.address) ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

async function listen(server: Server, port: number, host: string): Promise<void> {
  server.listen(port, host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
}

function jobsLine(config: Config, runWorkers: boolean): string {
  if (!config.redisUrl) return 'jobs in-process';
  return runWorkers
    ? 'BullMQ on Redis, workers in this process (serve --no-worker to run them separately)'
    : 'BullMQ on Redis, enqueue only: run `hiring-integrations worker` to process jobs';
}

function banner(config: Config, host: StandaloneHost, demo: DemoCredentials | undefined, runWorkers: boolean): string {
  const lines = [
    '',
    `  hiring-integrations ${host.plugin.version} is running at ${config.baseUrl}`,
    `  mode: ${config.databaseUrl ? 'PostgreSQL' : `embedded PGlite (${config.dataDir})`}, ${jobsLine(config, runWorkers)}`,
  ];
  if (demo) {
    lines.push(
      '',
      `  demo organization: ${demo.organization_id}`,
      `  demo API key:      ${demo.api_key}`,
      `  demo listing:      ${demo.listing_id}`,
      '',
      `  Open ${config.baseUrl}/demo to apply with a profile, then ${config.baseUrl}/demo/pipeline to see the application.`,
      `  Try:  curl -H "Authorization: Bearer ${demo.api_key}" ${config.baseUrl}/v1/organization`,
      `  API reference: ${config.baseUrl}/v1/openapi.json`,
    );
  } else {
    lines.push(`  API reference: ${config.baseUrl}/v1/openapi.json`);
    if (config.env !== 'production') lines.push('  No demo data on PostgreSQL unless asked for: serve --demo (or DEMO_ENABLED=true).');
  }
  return lines.join('\n') + '\n';
}

/**
 * @param options.runWorkers with Redis, run the job workers in this process too (default true);
 *   without Redis they always run here.
 * @param options.demo seed and serve the demo on PostgreSQL too (default: DEMO_ENABLED, else embedded only).
 */
export async function serve(options: { port?: number; runWorkers?: boolean; demo?: boolean } = {}): Promise<void> {
  const config = loadConfig();
  if (options.port !== undefined) config.port = options.port;
  // The standalone host has no billing of its own: test-mode collection outside production.
  config.billingCollection ??= config.env === 'production' ? 'host' : 'sandbox';
  const runWorkers = options.runWorkers ?? true;
  const withDemo = demoEnabled(config, options.demo);
  const logger = createLogger({ level: config.logLevel, pretty: prettyLogs(config) });
  const releaseLock = config.databaseUrl ? () => undefined : acquireEmbeddedLock(config.dataDir);
  const { hostRoutes } = await import('../demo/demo-pages');
  let demo: DemoCredentials | undefined;
  const host = await createStandaloneHost({ config, logger, runWorkers, hostRoutes: (h) => hostRoutes(h, { enabled: withDemo, demo: () => demo }) });
  if (withDemo) demo = await ensureDemoData(config, operatorServices(host.db, config).organizations, host.listings, host.db);
  const server = createServer(host.app);
  server.keepAliveTimeout = 65_000;
  const draining = drainable(server);
  await listen(server, config.port, config.host);
  logger.info({ port: config.port, baseUrl: config.baseUrl }, 'listening');
  if (demo)
    await licenseDemo(localUrl(server), demo).catch((error: Error) => logger.warn({ err: errorFields(error) }, 'the demo license could not be activated'));
  process.stdout.write(banner(config, host, demo, runWorkers || !config.redisUrl));
  onShutdown(logger, config.shutdownTimeoutSeconds, async () => {
    await draining.drain();
    await host.close();
    releaseLock();
  });
}

/**
 * The worker role: BullMQ workers for every queue in the manifest, and a small HTTP
 * listener on WORKER_HTTP_PORT with only GET /healthz, /readyz and /metrics (the
 * container's healthcheck and the job metrics, which are counted where jobs run).
 */
export async function worker(): Promise<void> {
  const config = loadConfig();
  config.billingCollection ??= config.env === 'production' ? 'host' : 'sandbox';
  if (!config.redisUrl) throw new Error('REDIS_URL is required for a separate worker; without Redis, `serve` runs jobs in-process');
  const logger = createLogger({ level: config.logLevel, pretty: prettyLogs(config) });
  const host = await createStandaloneHost({ config, logger, runWorkers: true });
  let server: Server | undefined;
  let draining: ReturnType<typeof drainable> | undefined;
  if (config.workerHttpPort > 0) {
    const app = express();
    app.disable('x-powered-by');
    app.get(['/healthz', '/readyz', '/metrics'], host.app);
    app.use(requestId);
    app.use(notFoundHandler);
    server = createServer(app);
    draining = drainable(server);
    await listen(server, config.workerHttpPort, config.host);
  }
  logger.info(
    {
      queues: host.plugin.queues.map((q) => ({ name: q.name, concurrency: config.workerConcurrency ?? q.concurrency })),
      httpPort: config.workerHttpPort || undefined,
    },
    'worker started',
  );
  onShutdown(logger, config.shutdownTimeoutSeconds, async () => {
    await draining?.drain();
    await host.close();
  });
}
