/**
 * Events are written in the transaction of the change that causes them (the outbox): a
 * rolled-back change leaves no event and no delivery; a committed one has both. Sequence
 * numbers are unique and gap-free per organization under concurrent writers.
 */
import { strict as assert } from 'node:assert';
import { eventMessage } from '../../src/kernel/outbox';
import { writeOutbox } from '../../src/platform/queue/outbox';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { FAST_WEBHOOKS } from '../helpers/webhook-receiver';

describe('events: written with their cause', function () {
  this.timeout(30_000);
  let t: TestHost;
  let org: { organizationId: string; apiKey: string };

  before(async () => {
    t = await startTestHost({ env: FAST_WEBHOOKS });
    org = await t.createOrganization('Outbox Org');
    const endpoint = await t.request('POST', '/v1/webhook_endpoints', { auth: org.apiKey, body: { url: 'http://127.0.0.1:9/unreachable', enabled: true } });
    assert.equal(endpoint.status, 201, endpoint.text);
  });
  after(() => t?.close());

  const message = (key: string) =>
    eventMessage({ organizationId: org.organizationId, type: 'license.activated', data: { license_id: key }, dedupeKey: `test:${key}` });
  const count = async (table: string, where: Record<string, unknown> = {}) => Number((await t.database.db(table).where(where).count({ n: '*' }).first())!.n);

  it('a rolled-back change leaves no event and no delivery; a committed one has both', async () => {
    const events = await count('hi_events');
    const deliveries = await count('hi_webhook_deliveries');
    await assert.rejects(
      t.database.db.transaction(async (trx) => {
        await writeOutbox(trx, [message('rolled-back')]);
        throw new Error('the change fails after its event was written');
      }),
      /the change fails/,
    );
    assert.equal(await count('hi_events'), events);
    assert.equal(await count('hi_webhook_deliveries'), deliveries);
    await t.database.db.transaction((trx) => writeOutbox(trx, [message('committed')]));
    assert.equal(await count('hi_events'), events + 1);
    assert.equal(await count('hi_webhook_deliveries'), deliveries + 1);
    // The same occurrence again (a retried job announcing it) is one event.
    await t.database.db.transaction((trx) => writeOutbox(trx, [message('committed')]));
    assert.equal(await count('hi_events'), events + 1);
  });

  it('license.deactivated is in the events API as the deactivation commits', async () => {
    const activated = await t.request('POST', '/v1/integrations/licenses/sms.interview_reminder/activate', { auth: org.apiKey });
    assert.ok(activated.status < 300, activated.text);
    const deactivated = await t.request('POST', '/v1/integrations/licenses/sms.interview_reminder/deactivate', { auth: org.apiKey });
    assert.equal(deactivated.status, 200, deactivated.text);
    const events = (await t.request('GET', '/v1/events?type=license.deactivated', { auth: org.apiKey })).body.data;
    assert.equal(events.length, 1);
    assert.equal(events[0].data.license_id, activated.body.id);
    assert.equal(events[0].data.status, 'deactivated');
  });

  it('sequences are unique, gap-free and follow commit order under concurrent writers', async () => {
    const before = await count('hi_events', { organization_id: org.organizationId });
    await Promise.all(Array.from({ length: 30 }, (_, i) => t.database.db.transaction((trx) => writeOutbox(trx, [message(`concurrent-${i}`)]))));
    const rows = await t.database.db('hi_events').where({ organization_id: org.organizationId }).orderBy('sequence');
    assert.equal(rows.length, before + 30);
    assert.deepEqual(
      rows.map((r) => Number(r.sequence)),
      rows.map((_, i) => i + 1),
    );
  });
});
