/**
 * A standalone host on an ephemeral port over a database of its own, plus a small HTTP
 * client. Integration tests drive the product through it, as an ATS or a browser would.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { Config } from '../../src/kernel/config';
import { rememberSecret, rememberSecretsIn, testLogger } from './log-capture';
import { operatorServices } from '../../src/standalone/cli/operator-services';
import { createStandaloneHost, type StandaloneHost, type StandaloneOptions } from '../../src/standalone/host/standalone-host';
import { testConfig, TEST_OPERATOR_KEY } from './config';
import { createTestDatabase, type TestDatabase } from './database';
import { within } from './deadline';
import { hasDocument, recordResponses, rememberDocument } from './openapi-conformance';

export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as-is, no JSON encoding. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Bearer credential. */
  auth?: string;
}

export interface TestHost {
  baseUrl: string;
  host: StandaloneHost;
  config: Config;
  database: TestDatabase;
  operatorKey: string;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<HttpResponse<T>>;
  /** Creates an organization; returns its id and API key. */
  createOrganization(name?: string): Promise<{ organizationId: string; apiKey: string }>;
  close(): Promise<void>;
}

export async function request<T = any>(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.auth) headers.authorization = `Bearer ${options.auth}`;
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  rememberSecretsIn(parsed);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export async function startTestHost(
  options: {
    env?: Record<string, string | undefined>;
    runWorkers?: boolean;
    hostRoutes?: StandaloneOptions['hostRoutes'];
    /** A PostgreSQL server of the test's own instead of DATABASE_URL's. */
    databaseServerUrl?: string;
  } = {},
): Promise<TestHost> {
  // Listen first, so BASE_URL (OAuth callbacks, widget URLs) names the real port.
  const server: Server = createServer();
  recordResponses(server);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const database = await createTestDatabase(options.databaseServerUrl);
  const config = testConfig({ DATABASE_URL: database.url, BASE_URL: baseUrl, ...options.env });
  const logger = testLogger();
  const host = await createStandaloneHost({ config, logger, db: database.db, runWorkers: options.runWorkers ?? true, hostRoutes: options.hostRoutes });
  server.on('request', host.app);
  const services = operatorServices(database.db, config);
  return {
    baseUrl,
    host,
    config,
    database,
    operatorKey: TEST_OPERATOR_KEY,
    request: (method, path, opts) => request(baseUrl, method, path, opts),
    async createOrganization(name = 'Acme Hiring') {
      const { organization, key } = await services.organizations.create(name);
      rememberSecret(key.apiKey);
      return { organizationId: organization.id, apiKey: key.apiKey };
    },
    // Bounded, step by step: a close that hangs fails the test naming the step, well before
    // mocha's timeout (which names none), and leaves the test's own failure, if any, visible.
    async close() {
      // The document the run's responses are checked against; read last, so it spends no test's rate-limit budget.
      if (!hasDocument()) {
        const doc = await within(request(baseUrl, 'GET', '/v1/openapi.json'), 5_000, 'GET /v1/openapi.json').catch(() => undefined);
        if (doc?.status === 200) rememberDocument(doc.body);
      }
      server.closeAllConnections();
      await within(new Promise((resolve) => server.close(resolve)), 5_000, "the test host's HTTP server to close");
      await within(host.close(), 15_000, 'the standalone host to close (plugin.dispose(): workers, queues, Redis connections, caches)');
      await within(database.drop(), 10_000, "the test host's database to be dropped");
    },
  };
}
