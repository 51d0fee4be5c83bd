/**
 * After dispose(), a host that keeps its mounts (most never unmount) gets 503
 * `plugin_disposed` in the error model from every router it was given, API and
 * operations alike, never a 500 or an answer from the disposed registry; readiness()
 * reports not ready and never throws.
 */
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { activate, defineConfig, HOST_CONTRACT_VERSION, migrate, type PluginInstance } from '../../src/index';
import { TEST_SECRET_KEY } from '../helpers/config';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { testLogger } from '../helpers/log-capture';
import { uniqueQueuePrefix } from '../helpers/redis';
import { request } from '../helpers/test-host';

const OPERATOR_KEY = 'op_dispose_test_0123456789abcdef';

describe('embedding: a disposed plugin', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let server: Server;
  let plugin: PluginInstance;
  let hostUrl: string;

  before(async () => {
    database = await createTestDatabase();
    await migrate(database.db);
    const app = express();
    plugin = await activate({
      contractVersion: HOST_CONTRACT_VERSION,
      config: defineConfig({
        baseUrl: 'http://127.0.0.1',
        secretKey: TEST_SECRET_KEY,
        operatorApiKey: OPERATOR_KEY,
        redisUrl: process.env.REDIS_URL,
        queuePrefix: uniqueQueuePrefix(),
        nodeEnv: 'test',
      }),
      logger: testLogger(),
      hooks: { on: () => () => undefined, emit: async () => undefined },
      database: database.db,
      listings: { get: async () => undefined },
      pipeline: { deliver: async () => undefined },
      http: {
        mount(path, router) {
          app.use(path, router);
          return () => undefined; // a host that never unmounts
        },
      },
    });
    for (const operation of plugin.operations) app.use(`/ops${operation.mountPath === '/' ? '' : operation.mountPath}`, operation.router);
    server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    hostUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await plugin?.dispose();
    await database?.drop();
  });

  const calls: [string, string, string | undefined][] = [
    ['GET', '/v1/openapi.json', undefined],
    ['GET', '/v1/organization', 'hik_aaaaaaaaaaaa_not_a_real_key'],
    ['GET', '/v1/public/organizations/org_x/listings/listing_x', undefined],
    ['GET', '/ops/healthz', undefined],
    ['GET', '/ops/readyz', undefined],
    ['GET', '/ops/metrics', OPERATOR_KEY],
  ];

  it('answers while active', async () => {
    assert.equal((await request(hostUrl, 'GET', '/v1/openapi.json')).status, 200);
    assert.equal((await request(hostUrl, 'GET', '/ops/readyz')).status, 200);
    const metrics = await request(hostUrl, 'GET', '/ops/metrics', { auth: OPERATOR_KEY });
    assert.equal(metrics.status, 200);
    assert.deepEqual((await plugin.readiness()).ok, true);
  });

  it('after dispose(), every API and operations route answers 503 plugin_disposed, and readiness() says not ready', async () => {
    await plugin.dispose();
    for (const [method, path, auth] of calls) {
      const response = await request(hostUrl, method, path, { auth, headers: { 'x-request-id': 'trace-42' } });
      assert.equal(response.status, 503, `${method} ${path}: ${response.text.slice(0, 200)}`);
      assert.equal(response.body.error.code, 'plugin_disposed', path);
      assert.equal(response.body.error.request_id, 'trace-42', path);
      assert.equal(response.headers.get('request-id'), 'trace-42');
      assert.ok(!response.text.includes('hiring_integrations_'), 'nothing from the disposed metrics registry');
    }
    assert.deepEqual(await plugin.readiness(), { ok: false, checks: { plugin: 'disposed' } });
    await plugin.dispose(); // twice is harmless
  });
});
