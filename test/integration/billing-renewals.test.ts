/**
 * Billing on the real services (PostgreSQL + BullMQ when configured, else PGlite and
 * in-process jobs), driven by test clocks:
 * - a quote from the preview is exactly what the activation is charged;
 * - a year of renewals: 12 invoices, paid by the sandbox test card, numbered without gaps,
 *   each with a printable HTML and PDF document;
 * - two plugin activations (API instances on one database) running the renewal job at once
 *   make one invoice per period, and a
 *   renewal after downtime catches up every missed period.
 */
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import type { AddressInfo } from 'node:net';
import { createStandaloneHost, type StandaloneHost } from '../../src/standalone/host/standalone-host';
import { testConfig, testEnv } from '../helpers/config';
import { settledLicense } from '../helpers/licensing';
import { waitFor } from '../helpers/profile-flow';
import { testLogger } from '../helpers/log-capture';
import { request, startTestHost, type TestHost } from '../helpers/test-host';
import { skipBecause } from '../helpers/skip';

const ACTION = 'hris.employee_sync'; // 2900 a month
const SUCCEEDS = '4242424242424242';

async function setClock(t: TestHost, organizationId: string, frozenTime: string): Promise<void> {
  const response = await t.request('POST', `/v1/billing/operator/organizations/${organizationId}/test_clock`, {
    auth: t.operatorKey,
    body: { frozen_time: frozenTime },
  });
  assert.equal(response.status, 200, response.text);
}

async function advance(t: TestHost, organizationId: string, to: string): Promise<any> {
  const response = await t.request('POST', `/v1/billing/operator/organizations/${organizationId}/test_clock/advance`, { auth: t.operatorKey, body: { to } });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

async function invoices(t: TestHost, apiKey: string): Promise<any[]> {
  const response = await t.request('GET', '/v1/billing/invoices?limit=100', { auth: apiKey });
  assert.equal(response.status, 200, response.text);
  return response.body.data.reverse(); // oldest first
}

describe('billing: renewals, quotes and invoice numbers', function () {
  this.timeout(120_000);
  let t: TestHost;

  before(async () => {
    t = await startTestHost({ env: { BILLING_COLLECTION: 'sandbox', RATE_LIMIT_PER_MINUTE: '0' } });
  });
  after(async () => {
    await t?.close();
  });

  it('a year of renewals: the quoted proration first, then 12 invoices, paid, numbered without gaps', async () => {
    const org = await t.createOrganization('Yearly');
    await setClock(t, org.organizationId, '2027-01-15T00:00:00Z');
    assert.equal((await t.request('POST', '/v1/billing/payment_method', { auth: org.apiKey, body: { number: SUCCEEDS } })).status, 200);

    const preview = await t.request('GET', `/v1/integrations/billing/preview?activate=${ACTION}`, { auth: org.apiKey });
    assert.equal(preview.status, 200, preview.text);
    const quote = preview.body.quote;
    // 17 of 31 days of 2900, rounded half up, plus the platform fee for January.
    assert.deepEqual(
      quote.lines.map((l: any) => [l.type, l.amount]),
      [
        ['action', Math.round((2900 * 17) / 31)],
        ['platform_fee', 4900],
      ],
    );
    assert.equal(quote.recurring_after, 2900 + 4900);

    const activated = await t.request('POST', `/v1/integrations/licenses/${ACTION}/activate?quote=${quote.id}`, { auth: org.apiKey });
    assert.equal(activated.status, 202, activated.text);
    await settledLicense(t, org.apiKey, activated.body.id);

    const upcoming = await t.request('GET', '/v1/billing/invoices/upcoming', { auth: org.apiKey });
    assert.equal(upcoming.status, 200, upcoming.text);
    assert.deepEqual(
      upcoming.body.lines.filter((l: any) => l.proration || l.period_start.startsWith('2027-01')),
      quote.lines,
      'the upcoming invoice carries the quoted lines',
    );
    assert.equal(upcoming.body.total, quote.amount + 2900 + 4900);

    await advance(t, org.organizationId, '2028-01-01T00:00:00Z');
    const year = await invoices(t, org.apiKey);
    assert.equal(year.length, 12);
    assert.deepEqual(
      year[0].lines.filter((l: any) => l.period_start.startsWith('2027-01')),
      quote.lines,
      'charged exactly what was quoted',
    );
    assert.equal(year[0].total, upcoming.body.total);
    for (const [i, invoice] of year.entries()) {
      assert.equal(invoice.status, 'paid', JSON.stringify(invoice));
      assert.equal(new Date(invoice.period_start).getUTCMonth(), (1 + i) % 12);
      if (i > 0) assert.equal(invoice.total, 2900 + 4900);
    }
    const numbers = year.map((i) => Number(i.number.replace('HI-', '')));
    assert.ok(year.every((i) => /^HI-\d{6}$/.test(i.number)));
    for (let i = 1; i < numbers.length; i++) assert.equal(numbers[i], numbers[i - 1]! + 1, `gapless: ${numbers.join(',')}`);

    const html = await t.request('GET', `/v1/billing/invoices/${year[0].id}/document`, { auth: org.apiKey });
    assert.equal(html.status, 200);
    assert.match(html.headers.get('content-type')!, /text\/html/);
    assert.ok(html.text.includes(year[0].number) && html.text.includes('USD 79.00'.replace('79.00', (year[0].total / 100).toFixed(2))));
    const pdf = await fetch(`${t.baseUrl}/v1/billing/invoices/${year[0].id}/document?format=pdf`, { headers: { authorization: `Bearer ${org.apiKey}` } });
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    assert.equal(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );

    const other = await t.createOrganization('Other');
    assert.equal((await t.request('GET', `/v1/billing/invoices/${year[0].id}`, { auth: other.apiKey })).status, 404, "another organization's invoice is 404");
    const operatorList = await t.request('GET', `/v1/billing/operator/invoices?organization_id=${org.organizationId}&limit=5`, { auth: t.operatorKey });
    assert.equal(operatorList.body.data.length, 5);
    assert.equal(operatorList.body.has_more, true);

    // The operator CLI reads the same through the running service's operator API.
    const cli = await promisify(execFile)(
      process.execPath,
      [path.join(PACKAGE_ROOT, 'bin/hiring-integrations.js'), 'invoices', 'list', '--org', org.organizationId, '--json'],
      {
        env: { PATH: process.env.PATH, ...testEnv({ BASE_URL: t.baseUrl, DATABASE_URL: t.database.url, LOG_LEVEL: 'silent' }) } as NodeJS.ProcessEnv,
        timeout: 30_000,
      },
    );
    assert.deepEqual(
      JSON.parse(cli.stdout).data.map((i: { number: string }) => i.number),
      [...year].reverse().map((i) => i.number),
    );
  });

  it('a quote is honoured from its own instant, and refused once something changed or for another change', async () => {
    const org = await t.createOrganization('Quotes');
    await setClock(t, org.organizationId, '2027-08-01T00:00:00Z');
    const activated = await t.request('POST', `/v1/integrations/licenses/${ACTION}/activate`, { auth: org.apiKey });
    await settledLicense(t, org.apiKey, activated.body.id);
    await advance(t, org.organizationId, '2027-08-11T00:00:00Z');
    const quote = (await t.request('GET', `/v1/integrations/billing/preview?deactivate=${ACTION}`, { auth: org.apiKey })).body.quote;
    assert.deepEqual(
      quote.lines.map((l: any) => l.amount),
      [-(2900 - Math.round((2900 * 10) / 31))],
      '21 of 31 days credited',
    );

    const wrong = await t.request('POST', '/v1/integrations/licenses/esign.send_offer/activate?quote=' + quote.id, { auth: org.apiKey });
    assert.equal(wrong.status, 400, wrong.text);
    assert.equal(wrong.body.error.code, 'quote_mismatch');

    // Five days later by the account's clock, the quoted credit still holds (the quote's instant is the proration date).
    await advance(t, org.organizationId, '2027-08-16T00:00:00Z');
    const deactivated = await t.request('POST', `/v1/integrations/licenses/${ACTION}/deactivate?quote=${quote.id}`, { auth: org.apiKey });
    assert.equal(deactivated.status, 200, deactivated.text);
    const upcoming = (await t.request('GET', '/v1/billing/invoices/upcoming', { auth: org.apiKey })).body;
    assert.deepEqual(
      upcoming.lines.filter((l: any) => l.amount < 0),
      quote.lines,
    );

    const again = await t.request('GET', `/v1/integrations/billing/preview?activate=${ACTION}`, { auth: org.apiKey });
    await t.request('POST', '/v1/integrations/licenses/esign.send_offer/activate', { auth: org.apiKey });
    const stale = await t.request('POST', `/v1/integrations/licenses/${ACTION}/activate?quote=${again.body.quote.id}`, { auth: org.apiKey });
    assert.equal(stale.status, 409, stale.text);
    assert.equal(stale.body.error.code, 'quote_stale');
  });

  it('a package switch is quoted and charged as one change: the unused time of one, the remaining time of the other', async () => {
    const org = await t.createOrganization('Switcher');
    await setClock(t, org.organizationId, '2027-09-01T00:00:00Z');
    assert.ok((await t.request('POST', '/v1/integrations/packages/schools/subscribe', { auth: org.apiKey })).status < 300);
    await advance(t, org.organizationId, '2027-09-16T00:00:00Z'); // half of September left
    const quote = await t.request('GET', '/v1/billing/quote?switch_from=schools&switch_to=healthcare', { auth: org.apiKey });
    assert.equal(quote.status, 200, quote.text);
    assert.deepEqual(
      quote.body.lines.map((l: any) => [l.key, l.amount]),
      [
        ['schools', -3450],
        ['healthcare', 2950],
      ],
    );
    assert.equal(quote.body.recurring_after, 5900);
    const switched = await t.request('POST', `/v1/integrations/packages/schools/switch?to=healthcare&quote=${quote.body.id}`, { auth: org.apiKey });
    assert.equal(switched.status, 200, switched.text);
    assert.deepEqual([switched.body.from.status, switched.body.to.package], ['canceled', 'healthcare']);
    const upcoming = (await t.request('GET', '/v1/billing/invoices/upcoming', { auth: org.apiKey })).body;
    // September from the 1st (subscribed then), the switch's two quoted lines, October in advance.
    assert.deepEqual(upcoming.lines.filter((l: any) => l.proration).slice(1), quote.body.lines);
    assert.equal(upcoming.subtotal, 6900 - 3450 + 2950 + 5900);
    assert.equal(
      (await t.request('POST', '/v1/integrations/packages/schools/switch?to=healthcare', { auth: org.apiKey })).status,
      404,
      'no longer subscribed to schools',
    );
  });

  it('the renewal job run by two plugin activations at once makes one invoice per period, and catches up after downtime', async () => {
    const org = await t.createOrganization('Concurrent');
    await setClock(t, org.organizationId, '2027-03-10T12:00:00Z');
    await t.request('POST', '/v1/billing/payment_method', { auth: org.apiKey, body: { number: SUCCEEDS } });
    const activated = await t.request('POST', `/v1/integrations/licenses/${ACTION}/activate`, { auth: org.apiKey });
    await settledLicense(t, org.apiKey, activated.body.id);
    // "Downtime": the clock jumps three renewals ahead without anything running.
    await setClock(t, org.organizationId, '2027-06-02T00:00:00Z');

    const second: StandaloneHost = await createStandaloneHost({
      config: testConfig({ DATABASE_URL: t.database.url, BASE_URL: t.baseUrl, QUEUE_PREFIX: t.config.queuePrefix, BILLING_COLLECTION: 'sandbox' }),
      logger: testLogger(),
      db: t.database.db,
      runWorkers: false,
    });
    const server: Server = createServer(second.app);
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const secondUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const runs = await Promise.all([
        t.request('POST', '/v1/billing/operator/renewals/run', { auth: t.operatorKey }),
        request(secondUrl, 'POST', '/v1/billing/operator/renewals/run', { auth: t.operatorKey }),
        t.request('POST', '/v1/billing/operator/renewals/run', { auth: t.operatorKey }),
      ]);
      for (const run of runs) assert.equal(run.status, 200, run.text);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await second.close();
    }
    const made = await invoices(t, org.apiKey);
    assert.deepEqual(
      made.map((i) => i.period_start),
      ['2027-04-01T00:00:00.000Z', '2027-05-01T00:00:00.000Z', '2027-06-01T00:00:00.000Z'],
      'one invoice per missed period, none twice',
    );
    const rows = await t.database.db('hi_invoices').where({ organization_id: org.organizationId }).count<{ count: string }[]>('* as count');
    assert.equal(Number(rows[0]!.count), 3);
    // The unique index is the last line of defence.
    const { seq: _seq, ...first } = await t.database.db('hi_invoices').where({ id: made[0].id }).first();
    await assert.rejects(
      t.database.db('hi_invoices').insert({ ...first, id: 'inv_duplicate', number: null, lines: JSON.stringify(made[0].lines) }),
      /hi_invoices_one_per_period/,
    );
  });

  it('the renewal job records live licenses the ledger missed (the step after a purchase failed)', async () => {
    const org = await t.createOrganization('Missed');
    const activated = await t.request('POST', `/v1/integrations/licenses/${ACTION}/activate`, { auth: org.apiKey });
    await settledLicense(t, org.apiKey, activated.body.id);
    await t.database.db('hi_billing_accounts').where({ organization_id: org.organizationId }).delete(); // as if the ledger step never ran
    assert.equal((await t.request('POST', '/v1/billing/operator/renewals/run', { auth: t.operatorKey })).status, 200);
    const account = await t.database.db('hi_billing_accounts').where({ organization_id: org.organizationId }).first();
    assert.ok(account?.next_action_at, 'the account is back on the renewal schedule');
    const upcoming = (await t.request('GET', '/v1/billing/invoices/upcoming', { auth: org.apiKey })).body;
    assert.ok(
      upcoming.lines.some((l: any) => l.key === ACTION && !l.proration && l.amount === 2900),
      JSON.stringify(upcoming.lines),
    );
  });

  it('with Redis, the renewal job is a BullMQ job scheduler, and a queued run renews what is due', async function () {
    if (!t.config.redisUrl) skipBecause(this, 'needs REDIS_URL: the BullMQ job scheduler');
    const { Queue } = await import('bullmq');
    const { default: Redis } = await import('ioredis');
    const connection = new Redis(t.config.redisUrl!, { maxRetriesPerRequest: null });
    const queue = new Queue('billing-renewal', { connection, prefix: t.config.queuePrefix });
    try {
      const schedulers = await queue.getJobSchedulers();
      assert.ok(
        schedulers.some((s) => s.key === 'billing-renewal' && Number(s.every) === t.config.billingRenewalIntervalSeconds * 1000),
        JSON.stringify(schedulers),
      );
      // A run of the job, taken by this installation's BullMQ worker, renews what is due.
      const org = await t.createOrganization('Queued');
      await setClock(t, org.organizationId, '2027-10-20T00:00:00Z');
      const activated = await t.request('POST', `/v1/integrations/licenses/${ACTION}/activate`, { auth: org.apiKey });
      await settledLicense(t, org.apiKey, activated.body.id);
      await setClock(t, org.organizationId, '2028-01-05T00:00:00Z');
      await queue.add('renew', {}, { jobId: `renew-now-${org.organizationId}` });
      const made = await waitFor(async () => {
        const list = await invoices(t, org.apiKey);
        return list.length === 3 ? list : undefined;
      }, 'the queued renewal to make three invoices');
      assert.deepEqual(
        made.map((i) => i.period_start.slice(0, 7)),
        ['2027-11', '2027-12', '2028-01'],
      );
    } finally {
      await queue.close();
      await connection.quit();
    }
  });
});
