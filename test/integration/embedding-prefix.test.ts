/**
 * An embedding host in this process, through the public entry only (src/index.ts): the
 * plugin under /jobs/apply with the host's own listing ids (a UUID, an integer, `job-42`),
 * the role `all` (jobs in-process without Redis, BullMQ with it), its operations routers
 * offered rather than mounted. Runs on PGlite and on PostgreSQL, so embedded runs cover
 * the prefix too.
 */
import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import {
  activate,
  defineConfig,
  HOST_CONTRACT_VERSION,
  migrate,
  type HookBus,
  type HookListener,
  type Listing,
  type Logger,
  type PipelineApplication,
  type PluginInstance,
} from '../../src/index';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { rememberSecret, testLogger } from '../helpers/log-capture';
import { ADA, enableProfileApply, GRACE, KATHERINE, runConnect, waitFor } from '../helpers/profile-flow';
import { uniqueQueuePrefix } from '../helpers/redis';
import { request } from '../helpers/test-host';
import { TEST_SECRET_KEY } from '../helpers/config';

const MOUNT_PATH = '/jobs/apply';

describe('embedding in process: any mount path, the host’s own listing ids', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let server: Server;
  let plugin: PluginInstance;
  let hostUrl: string;
  let pluginUrl: string;
  const listings = new Map<string, Listing>();
  const delivered: PipelineApplication[] = [];
  const events: { hook: string; payload: Record<string, unknown> }[] = [];

  before(async () => {
    database = await createTestDatabase();
    await migrate(database.db);
    server = createServer();
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    hostUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    pluginUrl = `${hostUrl}${MOUNT_PATH}`;

    const listeners = new Map<string, Set<HookListener>>();
    const hooks: HookBus = {
      on(hook, listener) {
        listeners.set(hook, (listeners.get(hook) ?? new Set()).add(listener));
        return () => void listeners.get(hook)!.delete(listener);
      },
      async emit(hook, organizationId, payload) {
        events.push({ hook, payload: payload as Record<string, unknown> });
        for (const listener of listeners.get(hook) ?? []) await listener({ hook, organizationId, payload: payload as Record<string, unknown> });
      },
    };
    const app = express();
    app.get('/healthz', (_req, res) => res.json({ host: 'own' }));
    plugin = await activate({
      contractVersion: HOST_CONTRACT_VERSION,
      config: defineConfig({
        baseUrl: hostUrl,
        mountPath: MOUNT_PATH,
        secretKey: TEST_SECRET_KEY,
        redisUrl: process.env.REDIS_URL,
        queuePrefix: uniqueQueuePrefix(),
        nodeEnv: 'test',
      }),
      logger: testLogger(),
      hooks,
      database: database.db,
      listings: { get: async (id) => listings.get(id) },
      pipeline: { deliver: async (application) => void delivered.push(application) },
      http: {
        mount(path, router) {
          app.use(path, router);
          return () => undefined;
        },
      },
    });
    await plugin.startWorkers();
    server.on('request', app);
  });
  after(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await plugin?.dispose();
    await database?.drop();
  });

  it('mounts every router under the mount path and nothing at the host’s root', async () => {
    assert.ok(
      plugin.routers.every((r) => r.mountPath.startsWith(`${MOUNT_PATH}/`)),
      JSON.stringify(plugin.routers),
    );
    assert.deepEqual(plugin.operations.map((o) => o.name).sort(), ['health', 'jobs-dashboard', 'metrics']);
    assert.deepEqual((await request(hostUrl, 'GET', '/healthz')).body, { host: 'own' });
    assert.equal((await request(pluginUrl, 'GET', '/healthz')).status, 404);
    assert.equal((await request(hostUrl, 'GET', '/v1/openapi.json')).status, 404);
    const document = await request(pluginUrl, 'GET', '/v1/openapi.json');
    assert.deepEqual(document.body.servers, [{ url: pluginUrl }]);
    assert.ok(!Object.keys(document.body.paths).some((p) => p === '/healthz' || p === '/metrics'), 'offered routers are not in the API of the mount path');
  });

  for (const [shape, id] of [
    ['a UUID', randomUUID()],
    ['an integer', '4242'],
    ['job-42', 'job-42'],
  ] as const) {
    it(`takes ${shape} as a listing id through the popup, the apply endpoint and the pipeline`, async () => {
      const { organization, apiKey } = await plugin.organizations.create({ name: `Host ${shape}` });
      rememberSecret(apiKey);
      listings.set(id, { id, organizationId: organization.id, title: 'Welder', status: 'open', questions: [] });
      const origin = 'https://careers.host.example';
      await enableProfileApply({ request: (method, path, options) => request(pluginUrl, method, path, options) }, apiKey, [origin]);
      assert.equal((await request(pluginUrl, 'GET', `/v1/public/organizations/${organization.id}/listings/${encodeURIComponent(id)}`)).status, 200);

      const candidate = shape === 'a UUID' ? ADA : shape === 'an integer' ? GRACE : KATHERINE;
      const run = await runConnect(
        { baseUrl: pluginUrl },
        { organizationId: organization.id, listingId: id, origin, button: `Authorize as ${candidate.name}` },
      );
      assert.match(run.start.headers.getSetCookie().join('\n'), new RegExp(`Path=${MOUNT_PATH}/v1/connect`));
      assert.equal(run.authorizeUrl.searchParams.get('redirect_uri'), `${pluginUrl}/v1/connect/profile/callback`);
      assert.equal(run.result?.message.type, 'profile-apply:authorized', run.callback?.text.slice(0, 400));
      assert.equal(run.result!.message.listing_id, id);

      const applied = await request(pluginUrl, 'POST', `/v1/opportunities/listings/${encodeURIComponent(id)}/applications/profile`, {
        auth: run.result!.message.candidate_token,
        body: { profile_user_id: candidate.id },
      });
      assert.equal(applied.status, 201, applied.text);
      const entry = await waitFor(async () => delivered.find((a) => a.applicationId === applied.body.application_id), 'delivery to the host pipeline');
      assert.equal(entry.listingId, id);
      assert.ok(entry.profileUrl.startsWith(`${pluginUrl}/sandbox/profiles/`), entry.profileUrl);
      await waitFor(
        async () => events.some((e) => e.hook === 'application.submitted' && e.payload.application_id === applied.body.application_id),
        'application.submitted',
      );
    });
  }

  it('stops activation naming what the host left out: a short secret, Redis for the api role, a database', async () => {
    const base = {
      contractVersion: HOST_CONTRACT_VERSION,
      logger: testLogger(),
      hooks: { on: () => () => undefined, emit: async () => undefined },
      listings: { get: async () => undefined },
      pipeline: { deliver: async () => undefined },
      http: { mount: () => () => undefined },
    };
    const config = defineConfig({ baseUrl: hostUrl, secretKey: TEST_SECRET_KEY });
    const refused = async (host: Parameters<typeof activate>[0], options: Parameters<typeof activate>[1], env: string) =>
      assert.rejects(activate(host, options), (error: { env?: string }) => error.env === env);
    await refused({ ...base, config: { ...config, secretKey: Buffer.alloc(16) }, database: database.db }, {}, 'SECRET_KEY');
    await refused({ ...base, config: { ...config, redisUrl: undefined }, database: database.db }, { role: 'api' }, 'REDIS_URL');
    await refused({ ...base, config: { ...config, redisUrl: undefined }, database: database.db }, { role: 'worker' }, 'REDIS_URL');
    await refused({ ...base, config }, {}, 'DATABASE_URL');
  });

  it('a host written for contract 1.0.0 that still passes connectors.esign activates: the port is ignored with one warning naming the replacement', async () => {
    const warnings: { fields: object; message?: string }[] = [];
    const capturing: Logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (fields, message) => void warnings.push({ fields, message }),
      error: () => undefined,
      child: () => capturing,
    };
    const older = await activate({
      contractVersion: '1.0.0',
      config: defineConfig({ baseUrl: hostUrl, secretKey: TEST_SECRET_KEY }),
      logger: capturing,
      hooks: { on: () => () => undefined, emit: async () => undefined },
      listings: { get: async () => undefined },
      pipeline: { deliver: async () => undefined },
      http: { mount: () => () => undefined },
      database: database.db,
      // What a 1.0.0 host implemented: the port the plugin called before signing was built in.
      connectors: { esign: { sendForSignature: async () => ({ deliveryId: 'd', reference: 'r', envelopeId: 'e' }) } },
    });
    try {
      const retired = warnings.filter((w) => /connectors\.esign/.test(w.message ?? ''));
      assert.equal(retired.length, 1, JSON.stringify(warnings));
      assert.match(retired[0]!.message!, /ignored since host contract 1\.1\.0: offers and agreements are signed by the plugin itself/);
      assert.deepEqual((await older.readiness()).checks.database, 'ok');
    } finally {
      await older.dispose();
    }
  });

  it('refuses a listing id outside the documented limits as unavailable, never an error', async () => {
    const { organization, apiKey } = await plugin.organizations.create({ name: 'Strict host' });
    rememberSecret(apiKey);
    const origin = 'https://strict.host.example';
    await enableProfileApply({ request: (method, path, options) => request(pluginUrl, method, path, options) }, apiKey, [origin]);
    for (const bad of ['a b', 'x'.repeat(129), 'job/42']) {
      const query = new URLSearchParams({ organization_id: organization.id, listing_id: bad, origin });
      const response = await request(pluginUrl, 'GET', `/v1/connect/profile?${query}`);
      assert.equal(response.status, 200, `${bad}: ${response.text.slice(0, 200)}`);
      assert.match(response.text, /listing_unavailable/);
    }
  });
});
