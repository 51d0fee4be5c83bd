/**
 * Webhook endpoints and signed deliveries, end to end through the standalone host: a
 * receiver on a free port verifies every delivery with `standardwebhooks` (the reference
 * implementation). Retry timings come from WEBHOOK_RETRY_* in milliseconds.
 */
import { strict as assert } from 'node:assert';
import { rememberSecret } from '../helpers/log-capture';
import { licenseProfileApply, waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { KnexWebhookDeliveryRepository } from '../../src/features/webhooks/storage/webhook-delivery-repository';
import { KnexWebhookEndpointRepository } from '../../src/features/webhooks/storage/webhook-endpoint-repository';
import { TokenCipher } from '../../src/platform/security/token-cipher';
import { FAST_WEBHOOKS, WebhookReceiver } from '../helpers/webhook-receiver';

describe('webhooks: endpoints and signed deliveries', function () {
  this.timeout(60_000);
  let t: TestHost;
  let receiver: WebhookReceiver;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };

  const createEndpoint = async (body: Record<string, unknown> = {}, auth = acme.apiKey) => {
    const res = await t.request('POST', '/v1/webhook_endpoints', { auth, body: { url: receiver.url, ...body } });
    assert.equal(res.status, 201, res.text);
    rememberSecret(res.body.secret);
    return res.body as { id: string; secret: string };
  };
  const sendTest = async (endpointId: string) => {
    const res = await t.request('POST', `/v1/webhook_endpoints/${endpointId}/test`, { auth: acme.apiKey });
    assert.equal(res.status, 202, res.text);
    return res.body as { id: string; type: string; sequence: number };
  };
  const deliveries = async (endpointId: string, auth = acme.apiKey) =>
    (await t.request('GET', `/v1/webhook_endpoints/${endpointId}/deliveries?limit=100`, { auth })).body.data as any[];

  before(async () => {
    t = await startTestHost({ env: FAST_WEBHOOKS });
    acme = await t.createOrganization('Acme');
    globex = await t.createOrganization('Globex');
    receiver = await WebhookReceiver.start();
  });
  beforeEach(() => {
    receiver.respond = () => 200;
  });
  after(async () => {
    await receiver?.stop();
    await t?.close();
  });

  it('creates an endpoint whose whsec_ secret is shown once and stored encrypted', async () => {
    const endpoint = await createEndpoint({ description: 'ATS', event_types: ['license.activated'] });
    assert.match(endpoint.secret, /^whsec_[A-Za-z0-9+/=]{40,}$/);
    const read = await t.request('GET', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
    assert.equal(read.status, 200);
    assert.equal(read.body.secret, undefined);
    assert.deepEqual(read.body.event_types, ['license.activated']);
    const row = await t.database.db('hi_webhook_endpoints').where({ id: endpoint.id }).first();
    assert.ok(!JSON.stringify(row).includes(endpoint.secret.slice(6)), 'no plaintext secret in the row');
    // Nowhere in the database (an idempotency replay record, an event, the outbox).
    const tables = await t.database.db('information_schema.tables').where({ table_schema: 'public' }).pluck('table_name');
    for (const table of tables) {
      const [hit] = await t.database
        .db(table)
        .whereRaw(`${table}::text like ?`, [`%${endpoint.secret.slice(6, 30)}%`])
        .limit(1);
      assert.equal(hit, undefined, `the secret appears in ${table}`);
    }
    const list = await t.request('GET', '/v1/webhook_endpoints?limit=1', { auth: acme.apiKey });
    assert.equal(list.body.object, 'list');
    assert.equal(list.body.data.length, 1);
    const patched = await t.request('PATCH', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey, body: { enabled: false, description: null } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.enabled, false);
    const deleted = await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
    assert.equal(deleted.status, 200);
    assert.equal((await t.request('GET', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey })).status, 404);
  });

  it('refuses private, loopback, link-local and metadata destinations and non-http(s) URLs', async () => {
    for (const url of [
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://localhost:9/hook',
      'http://[::1]:9/hook',
      'http://192.168.0.10/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[::127.0.0.1]:8080/x',
      'http://[64:ff9b::10.0.0.1]/x',
      'http://[2002:c0a8:101::1]/x',
      'http://[2001:db8::1]/x',
      'http://[fd12:3456::1]/x',
      'http://[100::1]/x',
    ]) {
      const res = await t.request('POST', '/v1/webhook_endpoints', { auth: acme.apiKey, body: { url } });
      assert.equal(res.status, 400, `${url}: ${res.text}`);
      assert.equal(res.body.error.code, 'url_not_allowed', url);
      assert.equal(res.body.error.param, 'url');
    }
    for (const url of ['ftp://example.com/x', 'not a url', 'https://user:pw@example.com/x']) {
      const res = await t.request('POST', '/v1/webhook_endpoints', { auth: acme.apiKey, body: { url } });
      assert.equal(res.status, 400, url);
    }
    const bad = await t.request('POST', '/v1/webhook_endpoints', { auth: acme.apiKey, body: { url: receiver.url, event_types: ['Not A Type'] } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'event_types.0');
    assert.equal(
      await t.database
        .db('hi_webhook_endpoints')
        .where({ organization_id: acme.organizationId })
        .count({ n: '*' })
        .first()
        .then((r) => Number(r!.n)),
      0,
    );
  });

  it('checks the destination again at delivery: a name now resolving to loopback is refused, not retried (DNS rebinding)', async () => {
    const endpoint = await createEndpoint();
    receiver.secrets = [endpoint.secret];
    // As if the name had resolved to a public address at creation and to 127.0.0.1 now.
    await t.database
      .db('hi_webhook_endpoints')
      .where({ id: endpoint.id })
      .update({ url: `http://localhost:${receiver.port}/webhooks` });
    const event = await sendTest(endpoint.id);
    const failed = await waitFor(
      async () => (await deliveries(endpoint.id)).find((d) => d.event_id === event.id && d.status === 'failed'),
      'the refused delivery',
    );
    assert.match(failed.last_error, /destination_refused/);
    assert.equal(failed.attempts, 1);
    assert.equal(receiver.received.filter((r) => r.id === event.id).length, 0, 'nothing reached the receiver');
    await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
  });

  it('refuses a reserved IPv6 literal at delivery too (an endpoint stored before the rule tightened)', async () => {
    const endpoint = await createEndpoint();
    await t.database
      .db('hi_webhook_endpoints')
      .where({ id: endpoint.id })
      .update({ url: `http://[::127.0.0.1]:${receiver.port}/webhooks` });
    const event = await sendTest(endpoint.id);
    const failed = await waitFor(
      async () => (await deliveries(endpoint.id)).find((d) => d.event_id === event.id && d.status === 'failed'),
      'the refused delivery',
    );
    assert.match(failed.last_error, /destination_refused/);
    assert.equal(failed.attempts, 1);
    await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
  });

  it('delivers a signed test event: webhook-id is the event id, body {type, timestamp, data}, verified by standardwebhooks', async () => {
    const endpoint = await createEndpoint();
    receiver.secrets = [endpoint.secret];
    const event = await sendTest(endpoint.id);
    const got = await waitFor(async () => receiver.delivered().get(event.id)?.[0], 'the test delivery');
    assert.deepEqual(got.verifiedWith, [endpoint.secret]);
    assert.equal(got.payload.type, 'webhook_endpoint.test');
    assert.equal(got.payload.id, event.id);
    assert.equal(got.payload.sequence, event.sequence);
    assert.ok(!Number.isNaN(Date.parse(got.payload.timestamp)));
    assert.equal(got.payload.data.webhook_endpoint_id, endpoint.id);
    const log = await waitFor(async () => (await deliveries(endpoint.id)).find((d) => d.status === 'succeeded'), 'the delivery log');
    assert.equal(log.event_id, event.id);
    assert.equal(log.attempts, 1);
    assert.equal(log.last_status_code, 200);
    assert.equal(log.next_attempt_at, null);
    await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
  });

  it('concurrent deliveries to two endpoints (claims and successes batched in shared statements): each recorded once, each endpoint its last success', async () => {
    const endpoints = [await createEndpoint(), await createEndpoint()];
    receiver.secrets = endpoints.map((e) => e.secret);
    const events = await Promise.all(endpoints.flatMap((e) => Array.from({ length: 8 }, () => sendTest(e.id))));
    for (const endpoint of endpoints) {
      await waitFor(async () => ((await deliveries(endpoint.id)).filter((d) => d.status === 'succeeded').length === 8 ? true : undefined), 'every delivery');
      const rows = await t.database.db('hi_webhook_deliveries').where({ endpoint_id: endpoint.id });
      assert.ok(
        rows.every((r) => r.status === 'succeeded' && r.attempts === 1 && r.last_status_code === 200 && r.locked_until === null),
        JSON.stringify(rows),
      );
      const { last_success_at } = await t.database.db('hi_webhook_endpoints').where({ id: endpoint.id }).first();
      assert.equal(new Date(last_success_at).getTime(), Math.max(...rows.map((r) => new Date(r.completed_at).getTime())));
    }
    const delivered = receiver.delivered();
    for (const event of events) assert.equal(delivered.get(event.id)?.length, 1, `${event.id} delivered once`);
    for (const endpoint of endpoints) await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
  });

  it('receiver down, then up: every event arrives, each under its own stable webhook-id', async () => {
    const endpoint = await createEndpoint();
    receiver.secrets = [endpoint.secret];
    const port = receiver.port;
    await receiver.stop();
    const events: { id: string; type: string; sequence: number }[] = [];
    for (let i = 0; i < 6; i++) events.push(await sendTest(endpoint.id));
    await waitFor(
      async () => ((await deliveries(endpoint.id)).every((d) => d.attempts >= 1 && d.status === 'pending') ? true : undefined),
      'failed first attempts',
    );
    const pending = await deliveries(endpoint.id);
    assert.ok(
      pending.every((d) => /network/.test(d.last_error) && d.next_attempt_at),
      JSON.stringify(pending),
    );
    await receiver.listen(port);
    await waitFor(async () => ((await deliveries(endpoint.id)).every((d) => d.status === 'succeeded') ? true : undefined), 'every delivery to succeed');
    const delivered = receiver.delivered();
    for (const event of events) {
      assert.equal(delivered.get(event.id)?.length, 1, `${event.id} delivered once`);
      assert.equal(delivered.get(event.id)![0]!.payload.id, event.id);
    }
    const ids = receiver.received.filter((r) => events.some((e) => e.id === r.id));
    assert.equal(new Set(ids.map((r) => r.id)).size, events.length, 'no delivery under another id');
    const sequences = events.map((e) => e.sequence);
    assert.deepEqual(
      [...sequences].sort((a, b) => a - b),
      sequences,
      'sequences increase',
    );
    await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
  });

  it('the sweep does not take a delivery from the job sending it, and gives the job it starts a whole grace', async () => {
    const endpoint = await createEndpoint();
    receiver.secrets = [endpoint.secret];
    receiver.respond = () => 'hold';
    const event = await sendTest(endpoint.id);
    await waitFor(async () => receiver.received.some((r) => r.id === event.id), 'the delivery held at the receiver');
    const [listed] = await deliveries(endpoint.id);
    const row = await t.database.db('hi_webhook_deliveries').where({ id: listed.id }).first();
    assert.ok(row.locked_until, 'claimed by the job sending it');
    // What a sweep does with a snapshot read just before the claim.
    // (The endpoint repository only maps what a claim reads; no claim here, so any key will do.)
    const endpoints = new KnexWebhookEndpointRepository(t.database.db, new TokenCipher(Buffer.alloc(32)));
    const repository = new KnexWebhookDeliveryRepository(t.database.db, { nudge: () => undefined }, endpoints);
    assert.equal(await repository.reenqueue(listed.id, row.job_seq, new Date()), false, 'not moved to a new job while claimed');
    // Once the claim has expired (the sending worker died), it is; the new job is due at the sweep's time.
    const at = new Date(new Date(row.locked_until).getTime() + 1);
    assert.equal(await repository.reenqueue(listed.id, row.job_seq, at), true);
    const moved = await repository.findById(listed.id);
    assert.equal(moved?.jobSeq, row.job_seq + 1);
    assert.equal(moved?.nextAttemptAt?.getTime(), at.getTime());
    receiver.respond = () => 200;
    receiver.release(200);
    await waitFor(async () => (await deliveries(endpoint.id))[0]?.status === 'succeeded', 'the delivery to succeed');
    await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
  });

  it('retries 503 and 429, but not 410 or 400', async () => {
    const endpoint = await createEndpoint();
    receiver.secrets = [endpoint.secret];
    const plan = new Map<string, number[]>();
    receiver.respond = ({ id, attempt }) => plan.get(id)?.[attempt - 1] ?? 200;
    const retried = await sendTest(endpoint.id);
    const gone = await sendTest(endpoint.id);
    const bad = await sendTest(endpoint.id);
    plan.set(retried.id, [503, 429, 200]);
    plan.set(gone.id, [410]);
    plan.set(bad.id, [400]);
    // The plan is set after the events were recorded; an early attempt may have answered 200 already.
    await waitFor(async () => ((await deliveries(endpoint.id)).every((d) => d.status !== 'pending') ? true : undefined), 'every delivery settled');
    await new Promise((r) => setTimeout(r, 300));
    const log = await deliveries(endpoint.id);
    const of = (id: string) => log.find((d) => d.event_id === id);
    const count = (id: string) => receiver.received.filter((r) => r.id === id).length;
    if (count(gone.id) > 0 && receiver.received.find((r) => r.id === gone.id)!.status === 410) {
      assert.equal(of(gone.id).status, 'failed');
      assert.equal(of(gone.id).attempts, 1);
      assert.equal(of(gone.id).last_status_code, 410);
      assert.equal(count(gone.id), 1, '410 is not retried');
    }
    if (receiver.received.find((r) => r.id === bad.id)?.status === 400) {
      assert.equal(of(bad.id).status, 'failed');
      assert.equal(count(bad.id), 1, '400 is not retried');
    }
    assert.equal(of(retried.id).status, 'succeeded');
    // Deterministic check of permanent failure: an endpoint that always answers 410.
    receiver.respond = () => 410;
    const always = await sendTest(endpoint.id);
    const failed = await waitFor(
      async () => (await deliveries(endpoint.id)).find((d) => d.event_id === always.id && d.status === 'failed'),
      'the 410 delivery to fail',
    );
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(receiver.received.filter((r) => r.id === always.id).length, 1, 'one attempt, no retry');
    assert.equal(failed.attempts, 1);
    assert.equal(failed.last_status_code, 410);

    // Replay: the same delivery, the same webhook-id.
    receiver.respond = () => 200;
    const retry = await t.request('POST', `/v1/webhook_endpoints/${endpoint.id}/deliveries/${failed.id}/retry`, { auth: acme.apiKey });
    assert.equal(retry.status, 202, retry.text);
    assert.equal(retry.body.status, 'pending');
    await waitFor(async () => receiver.delivered().get(always.id), 'the replayed delivery');
    await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
  });

  it('retries on timeouts', async () => {
    const endpoint = await createEndpoint();
    receiver.secrets = [endpoint.secret];
    receiver.respond = ({ attempt }) => (attempt === 1 ? 'hold' : 200);
    const event = await sendTest(endpoint.id);
    const done = await waitFor(async () => (await deliveries(endpoint.id)).find((d) => d.status === 'succeeded'), 'delivery after a timeout', 20_000);
    assert.equal(done.attempts, 2);
    receiver.release();
    assert.ok(receiver.received.filter((r) => r.id === event.id).length >= 2);
    await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
  });

  it('rotating the secret signs with both secrets during the overlap, then only the new one', async () => {
    const endpoint = await createEndpoint();
    const rotated = await t.request('POST', `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { auth: acme.apiKey, body: { expires_in_seconds: 2 } });
    assert.equal(rotated.status, 200, rotated.text);
    rememberSecret(rotated.body.secret);
    assert.notEqual(rotated.body.secret, endpoint.secret);
    receiver.secrets = [endpoint.secret, rotated.body.secret];
    const during = await sendTest(endpoint.id);
    const got = await waitFor(async () => receiver.delivered().get(during.id)?.[0], 'a delivery during the overlap');
    assert.deepEqual(got.verifiedWith, [endpoint.secret, rotated.body.secret]);
    assert.equal(got.signature.split(' ').length, 2);
    await new Promise((r) => setTimeout(r, 2100));
    const after = await sendTest(endpoint.id);
    const late = await waitFor(async () => receiver.delivered().get(after.id)?.[0], 'a delivery after the overlap');
    assert.deepEqual(late.verifiedWith, [rotated.body.secret]);
    await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
  });

  it('every published event goes through the events API and to subscribed endpoints (license.activated)', async () => {
    const endpoint = await createEndpoint({ event_types: ['license.activated'] });
    receiver.secrets = [endpoint.secret];
    await licenseProfileApply(t, acme.apiKey);
    const events = await waitFor(async () => {
      const res = await t.request('GET', '/v1/events?type=license.activated', { auth: acme.apiKey });
      return res.body.data.length > 0 ? res.body.data : undefined;
    }, 'license.activated in the events API');
    assert.equal(events[0].data.action_key, 'profile.accept_application');
    const got = await waitFor(async () => receiver.delivered().get(events[0].id)?.[0], 'license.activated delivered');
    assert.equal(got.payload.type, 'license.activated');
    assert.equal((await t.request('GET', `/v1/events/${events[0].id}`, { auth: acme.apiKey })).body.id, events[0].id);
    // The host's hook bus still hears it.
    assert.ok(t.host.hooks.recent.some((e) => e.hook === 'license.activated' && e.organizationId === acme.organizationId));
    // Only the wanted type went to this endpoint.
    assert.ok((await deliveries(endpoint.id)).every((d) => d.event_type === 'license.activated'));
    await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
  });

  it('lists events with cursor pagination and filters by type and time', async () => {
    const endpoint = await createEndpoint();
    const since = new Date().toISOString();
    for (let i = 0; i < 3; i++) await sendTest(endpoint.id);
    const first = await t.request('GET', `/v1/events?limit=2&type=webhook_endpoint.test&created_gte=${encodeURIComponent(since)}`, { auth: acme.apiKey });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.data.length, 2);
    assert.equal(first.body.has_more, true);
    assert.ok(first.body.data[0].sequence > first.body.data[1].sequence);
    const second = await t.request(
      'GET',
      `/v1/events?limit=2&type=webhook_endpoint.test&created_gte=${encodeURIComponent(since)}&starting_after=${first.body.data[1].id}`,
      { auth: acme.apiKey },
    );
    assert.equal(second.body.data.length, 1);
    assert.equal(second.body.has_more, false);
    const none = await t.request('GET', `/v1/events?created_lt=${encodeURIComponent('2000-01-01T00:00:00Z')}`, { auth: acme.apiKey });
    assert.equal(none.body.data.length, 0);
    const bad = await t.request('GET', '/v1/events?created_gte=yesterday', { auth: acme.apiKey });
    assert.equal(bad.status, 400);
    await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
  });

  it("another organization's endpoint, delivery and event are 404", async () => {
    const endpoint = await createEndpoint();
    receiver.secrets = [endpoint.secret];
    const event = await sendTest(endpoint.id);
    const delivery = await waitFor(async () => (await deliveries(endpoint.id)).find((d) => d.event_id === event.id), 'a delivery');
    const g = globex.apiKey;
    for (const [method, path] of [
      ['GET', `/v1/webhook_endpoints/${endpoint.id}`],
      ['PATCH', `/v1/webhook_endpoints/${endpoint.id}`],
      ['DELETE', `/v1/webhook_endpoints/${endpoint.id}`],
      ['POST', `/v1/webhook_endpoints/${endpoint.id}/test`],
      ['POST', `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`],
      ['GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries`],
      ['GET', `/v1/webhook_endpoints/${endpoint.id}/deliveries/${delivery.id}`],
      ['POST', `/v1/webhook_endpoints/${endpoint.id}/deliveries/${delivery.id}/retry`],
      ['GET', `/v1/events/${event.id}`],
    ] as const) {
      const res = await t.request(method, path, { auth: g, body: method === 'PATCH' || method === 'POST' ? {} : undefined });
      assert.equal(res.status, 404, `${method} ${path}: ${res.text}`);
      assert.equal(res.body.error.code, 'resource_missing');
    }
    const list = await t.request('GET', '/v1/events?limit=100', { auth: g });
    assert.ok(!list.body.data.some((e: { id: string }) => e.id === event.id));
    assert.equal((await t.request('GET', `/v1/events?starting_after=${event.id}`, { auth: g })).body.data.length, 0);
    await t.request('DELETE', `/v1/webhook_endpoints/${endpoint.id}`, { auth: acme.apiKey });
  });

  it('an endpoint failing for the whole retry window is disabled, with an event', async () => {
    const watcher = await createEndpoint({ event_types: ['webhook_endpoint.disabled'] });
    const failing = await createEndpoint();
    receiver.secrets = [watcher.secret, failing.secret];
    receiver.respond = ({ type }) => (type === 'webhook_endpoint.disabled' ? 200 : 503);
    await sendTest(failing.id);
    const disabled = await waitFor(
      async () => {
        const res = await t.request('GET', `/v1/webhook_endpoints/${failing.id}`, { auth: acme.apiKey });
        return res.body.enabled === false ? res.body : undefined;
      },
      'the endpoint to be disabled',
      20_000,
    );
    assert.equal(disabled.disabled_reason, 'failing');
    // The event is recorded just after the endpoint is disabled; endpoints of earlier tests may be disabled too.
    const events = await waitFor(async () => {
      const all = (await t.request('GET', '/v1/events?type=webhook_endpoint.disabled', { auth: acme.apiKey })).body.data as {
        id: string;
        data: { webhook_endpoint_id: string };
      }[];
      const mine = all.filter((e) => e.data.webhook_endpoint_id === failing.id);
      return mine.length > 0 ? mine : undefined;
    }, 'the webhook_endpoint.disabled event');
    assert.equal(events.length, 1);
    await waitFor(async () => receiver.delivered().get(events[0].id), 'the disabled event delivered to the watcher');
    const log = await deliveries(failing.id);
    assert.equal(log[0].status, 'failed');
    assert.ok(log[0].attempts >= 2, `retried until the window closed (${log[0].attempts} attempts)`);
  });
});
