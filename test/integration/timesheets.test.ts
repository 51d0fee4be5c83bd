/**
 * Timesheets (payroll.time_tracking) end to end: a placement, a week of shifts with FLSA
 * overtime, submission emailed over SMTP (the `smtp-server` package) to the client's
 * contact, the signed link's page (approve, reject with a note, a changed or superseded
 * link), timesheet.approved with the pay in cents, the ApprovedTimesheets read port, and the
 * license gate and another organization's ids.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { KnexApprovedTimesheets } from '../../src/features/timesheets/storage/knex-approved-timesheets';
import { activateLicense } from '../helpers/hooks';
import { eventsOf } from '../helpers/licensing';
import { waitFor } from '../helpers/profile-flow';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { startTestHost, type TestHost } from '../helpers/test-host';

const ACTION = 'payroll.time_tracking';
/** Monday 23 November 2026, Los Angeles (UTC−8). */
const shift = (day: number, from: string, to: string, breakMinutes = 30) => ({
  start: `2026-11-${23 + day}T${from}:00-08:00`,
  end: `2026-11-${23 + day}T${to}:00-08:00`,
  break_minutes: breakMinutes,
});

describe('timesheets: shifts, overtime, approval by the client’s contact (payroll.time_tracking)', function () {
  this.timeout(60_000);
  let t: TestHost;
  let smtp: TestSmtpServer;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };

  const placementBody = (overrides: Record<string, unknown> = {}) => ({
    worker_id: 'wrk_1042',
    worker_name: 'Rosa Díaz',
    worker_email: 'rosa@workers.example',
    client_company_id: 'cli_77',
    client_name: 'Harbor Logistics',
    client_contact: { name: 'Sam Lee', email: 'sam@harbor.example' },
    bill_rate: 4500,
    pay_rate: 2850,
    currency: 'USD',
    overtime_rule: 'flsa_weekly',
    timezone: 'America/Los_Angeles',
    ...overrides,
  });
  const linkIn = (to: string) => {
    const mail = smtp.received.filter((m) => m.envelope.to.includes(to)).at(-1);
    assert.ok(mail, `no mail reached ${to}`);
    const url = /https?:\/\/\S+\/v1\/timesheet_review\?token=\S+/.exec(mail.parsed.text ?? '')?.[0];
    assert.ok(url, mail.parsed.text);
    return { mail, path: url.slice(url.indexOf('/v1/')) };
  };
  const post = (path: string, fields: Record<string, string>) =>
    t.request('POST', path, { rawBody: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });

  before(async () => {
    [smtp, t] = await Promise.all([startSmtpServer(), startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } })]);
    acme = await t.createOrganization('Acme Staffing');
    globex = await t.createOrganization('Globex');
    await Promise.all([activateLicense(t, acme.apiKey, ACTION), activateLicense(t, acme.apiKey, 'payroll.invoicing')]);
    const created = await t.request('POST', '/v1/integrations/connections', {
      auth: acme.apiKey,
      body: {
        connector: 'smtp',
        settings: { host: 'localhost', port: smtp.port, from_email: 'payroll@acme.example', tls_ca: smtp.certificate },
        credentials: {},
      },
    });
    assert.equal(created.status, 201, created.text);
    const tested = await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: acme.apiKey });
    assert.equal(tested.body.ok, true, tested.text);
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('a week of 5 × 8.5 h is 40 h regular and 2.5 h overtime; the contact approves through the link; timesheet.approved carries the pay in cents', async () => {
    const placement = await t.request('POST', '/v1/timesheets/placements', { auth: acme.apiKey, body: placementBody() });
    assert.equal(placement.status, 201, placement.text);
    const entries = [0, 1, 2, 3, 4].map((d) => shift(d, '08:00', '17:00'));
    const created = await t.request('POST', '/v1/timesheets', {
      auth: acme.apiKey,
      body: { placement_id: placement.body.id, period_start: '2026-11-23', entries },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.status, 'draft');
    assert.deepEqual([created.body.regular_minutes, created.body.overtime_minutes, created.body.double_time_minutes], [2400, 150, 0]);
    // 28.50 × (40 + 1.5 × 2.5) = 1,246.875 → 1,246.88; 45.00 × 43.75 = 1,968.75.
    assert.equal(created.body.pay_amount, 124688);
    assert.equal(created.body.bill_amount, 196875);
    const again = await t.request('POST', '/v1/timesheets', { auth: acme.apiKey, body: { placement_id: placement.body.id, period_start: '2026-11-23' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'timesheet_exists');

    const submitted = await t.request('POST', `/v1/timesheets/${created.body.id}/submit`, { auth: acme.apiKey });
    assert.equal(submitted.status, 200, submitted.text);
    assert.equal(submitted.body.status, 'submitted');
    const run = await t.request('GET', `/v1/integrations/runs/${submitted.body.review_run_id}`, { auth: acme.apiKey });
    assert.equal(run.body.status, 'succeeded', run.text);
    assert.equal(run.body.action, ACTION);
    const { mail, path } = linkIn('sam@harbor.example');
    assert.match(mail.parsed.subject ?? '', /Rosa Díaz, week of 2026-11-23/);
    assert.equal(run.body.reference, mail.queueId);
    // Submitting again while submitted sends nothing more.
    const count = smtp.received.length;
    assert.equal((await t.request('POST', `/v1/timesheets/${created.body.id}/submit`, { auth: acme.apiKey })).status, 200);
    assert.equal(smtp.received.length, count);

    const page = await t.request('GET', path);
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Timesheet: Rosa Díaz<\/h1>/);
    assert.match(page.text, /<label for="note">/);
    assert.match(page.text, /value="approve">Approve</);
    assert.match(page.text, /USD 1968\.75/);
    assert.ok(!page.text.includes('1246.88'), 'the client never sees the worker’s pay');
    const tampered = await t.request(
      'GET',
      path.replace(/token=(.)/, (_, c: string) => `token=${c === 'A' ? 'B' : 'A'}`),
    );
    assert.equal(tampered.status, 400);
    assert.equal(tampered.headers.get('x-error-code'), 'link_invalid');
    const noDecision = await post(path, { decision: 'maybe' });
    assert.equal(noDecision.status, 400);
    assert.equal(noDecision.headers.get('x-error-code'), 'decision_invalid');

    const approved = await post(path, { decision: 'approve', note: 'Thanks!' });
    assert.equal(approved.status, 200, approved.text);
    assert.match(approved.text, /role="status">This timesheet was approved: “Thanks!”/);
    assert.equal((await post(path, { decision: 'reject', note: 'too late' })).status, 200, 'a second decision changes nothing');
    const read = await t.request('GET', `/v1/timesheets/${created.body.id}`, { auth: acme.apiKey });
    assert.equal(read.body.status, 'approved');
    assert.equal(read.body.decision_note, 'Thanks!');
    const events = await waitFor(async () => {
      const found = eventsOf(t, acme.organizationId, 'timesheet.approved');
      return found.length ? found : undefined;
    }, 'timesheet.approved');
    assert.equal(events.length, 1);
    assert.deepEqual(
      { ...events[0]!.payload, approved_at: undefined },
      {
        timesheet_id: created.body.id,
        placement_id: placement.body.id,
        worker_id: 'wrk_1042',
        client_company_id: 'cli_77',
        period_start: '2026-11-23',
        period_end: '2026-11-29',
        regular_minutes: 2400,
        overtime_minutes: 150,
        double_time_minutes: 0,
        hours: '42.50',
        pay_cents: 124688,
        bill_cents: 196875,
        currency: 'USD',
        approved_at: undefined,
        note: 'Thanks!',
      },
    );
    // The read port payouts use.
    const port = new KnexApprovedTimesheets(t.database.db);
    const listed = await port.list(acme.organizationId, { workerId: 'wrk_1042' });
    assert.deepEqual(
      listed.map((a) => [a.timesheetId, a.payCents, a.currency]),
      [[created.body.id, 124688, 'USD']],
    );
    assert.equal(await port.get(globex.organizationId, created.body.id), undefined);
    assert.equal((await t.request('PUT', `/v1/timesheets/${created.body.id}/entries`, { auth: acme.apiKey, body: { entries: [] } })).status, 409);
  });

  it('California daily overtime; a rejection needs a note; corrected and resubmitted, the old link is superseded', async () => {
    const placement = await t.request('POST', '/v1/timesheets/placements', {
      auth: acme.apiKey,
      body: placementBody({ worker_id: 'wrk_2', worker_name: 'Ana Lima', worker_email: 'ana@workers.example', overtime_rule: 'california_daily' }),
    });
    // One 13-hour day (no break): 8 regular, 4 overtime, 1 double time.
    const created = await t.request('POST', '/v1/timesheets', {
      auth: acme.apiKey,
      body: { placement_id: placement.body.id, period_start: '2026-11-23', entries: [shift(0, '06:00', '19:00', 0)] },
    });
    assert.deepEqual([created.body.regular_minutes, created.body.overtime_minutes, created.body.double_time_minutes], [480, 240, 60]);
    assert.equal(created.body.pay_amount, 2850 * 8 + 2850 * 1.5 * 4 + 2850 * 2);
    await t.request('POST', `/v1/timesheets/${created.body.id}/submit`, { auth: acme.apiKey });
    const first = linkIn('sam@harbor.example').path;
    const bare = await post(first, { decision: 'reject' });
    assert.equal(bare.status, 400);
    assert.equal(bare.headers.get('x-error-code'), 'note_required');
    assert.equal((await post(first, { decision: 'reject', note: 'Tuesday, not Monday' })).status, 200);
    const rejected = await waitFor(async () => eventsOf(t, acme.organizationId, 'timesheet.rejected')[0], 'timesheet.rejected');
    assert.equal(rejected.payload.note, 'Tuesday, not Monday');
    const fixed = await t.request('PUT', `/v1/timesheets/${created.body.id}/entries`, {
      auth: acme.apiKey,
      body: { entries: [shift(1, '06:00', '14:00', 0)] },
    });
    assert.equal(fixed.status, 200, fixed.text);
    assert.equal(fixed.body.overtime_minutes, 0);
    assert.equal((await t.request('POST', `/v1/timesheets/${created.body.id}/submit`, { auth: acme.apiKey })).body.status, 'submitted');
    const second = linkIn('sam@harbor.example').path;
    assert.notEqual(second, first);
    const stale = await t.request('GET', first);
    assert.equal(stale.status, 410);
    assert.equal(stale.headers.get('x-error-code'), 'link_superseded');
    assert.equal((await post(second, { decision: 'approve' })).status, 200);
  });

  it('bad input is a 400 with its parameter; without the license 403; another organization’s ids are 404', async () => {
    const bad = await t.request('POST', '/v1/timesheets/placements', { auth: acme.apiKey, body: placementBody({ pay_rate: 28.5 }) });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.param, 'pay_rate');
    const placement = await t.request('POST', '/v1/timesheets/placements', { auth: acme.apiKey, body: placementBody({ worker_id: 'wrk_3' }) });
    const overlap = await t.request('POST', '/v1/timesheets', {
      auth: acme.apiKey,
      body: { placement_id: placement.body.id, period_start: '2026-11-23', entries: [shift(0, '08:00', '12:00'), shift(0, '11:00', '15:00')] },
    });
    assert.equal(overlap.status, 400);
    assert.equal(overlap.body.error.code, 'entries_overlap');
    const unlicensed = await t.request('POST', '/v1/timesheets/placements', { auth: globex.apiKey, body: placementBody() });
    assert.equal(unlicensed.status, 403);
    assert.equal(unlicensed.body.error.code, 'license_required');
    assert.equal((await t.request('GET', `/v1/timesheets/placements/${placement.body.id}`, { auth: globex.apiKey })).status, 404);
    assert.equal((await t.request('GET', '/v1/timesheets', { auth: globex.apiKey })).body.data.length, 0);
  });

  it('approved hours become an invoice to the client: total = Σ hours × rates, numbered, emailed as PDF (read by pdftotext), paid; void releases the hours', async () => {
    const none = await t.request('POST', '/v1/client_invoices', {
      auth: acme.apiKey,
      body: { client_company_id: 'cli_none', period_start: '2026-11-01', period_end: '2026-11-30' },
    });
    assert.equal(none.status, 409);
    assert.equal(none.body.error.code, 'nothing_to_invoice');
    const draft = await t.request('POST', '/v1/client_invoices', {
      auth: acme.apiKey,
      body: { client_company_id: 'cli_77', period_start: '2026-11-01', period_end: '2026-11-30' },
    });
    assert.equal(draft.status, 201, draft.text);
    assert.equal(draft.body.status, 'draft');
    assert.equal(draft.body.number, null);
    // Rosa: 45.00 × (40 + 1.5 × 2.5) = 1,968.75; Ana (after the correction): 45.00 × 8 = 360.00.
    assert.deepEqual(draft.body.lines.map((l: { amount: number }) => l.amount).sort(), [196875, 36000]);
    assert.equal(draft.body.total, 232875);
    assert.match(
      draft.body.lines.find((l: { amount: number }) => l.amount === 196875).description,
      /^Rosa Díaz: 40\.00 h × 45\.00, 2\.50 h overtime × 67\.50$/,
    );
    const twice = await t.request('POST', '/v1/client_invoices', {
      auth: acme.apiKey,
      body: { client_company_id: 'cli_77', period_start: '2026-11-01', period_end: '2026-11-30' },
    });
    assert.equal(twice.body.error?.code, 'nothing_to_invoice', 'hours are invoiced once');
    assert.equal((await t.request('POST', `/v1/client_invoices/${draft.body.id}/pay`, { auth: acme.apiKey })).status, 409, 'a draft cannot be paid');

    const open = await t.request('POST', `/v1/client_invoices/${draft.body.id}/finalize`, { auth: acme.apiKey });
    assert.equal(open.status, 200, open.text);
    assert.equal(open.body.status, 'open');
    assert.match(open.body.number, /^INV-\d{6}$/);
    const run = await t.request('GET', `/v1/integrations/runs/${open.body.email_run_id}`, { auth: acme.apiKey });
    assert.equal(run.body.status, 'succeeded', run.text);
    assert.equal(run.body.action, 'payroll.invoicing');
    const mail = smtp.received.filter((m) => m.envelope.to.includes('sam@harbor.example')).at(-1)!;
    assert.equal(mail.queueId, run.body.reference);
    const attachment = mail.parsed.attachments.find((a) => a.contentType === 'application/pdf');
    assert.ok(attachment, 'the PDF is attached');
    const text = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', '-', '-'], { input: attachment.content, encoding: 'utf8' }).stdout;
    assert.match(text, new RegExp(`Invoice ${open.body.number}`));
    assert.match(text, /Billed to: Harbor Logistics \(cli_77\)/);
    assert.match(text, /Rosa Díaz: 40\.00 h × 45\.00, 2\.50 h overtime × 67\.50\s+2026-11-23 – 2026-11-29\s+USD 1968\.75/);
    assert.match(text, /Amount due\s+USD 2328\.75/);
    const html = await t.request('GET', `/v1/client_invoices/${draft.body.id}/document`, { auth: acme.apiKey });
    assert.equal(html.status, 200);
    assert.match(html.text, /USD 2328\.75/);

    const paid = await t.request('POST', `/v1/client_invoices/${draft.body.id}/pay`, { auth: acme.apiKey });
    assert.equal(paid.body.status, 'paid');
    const voidPaid = await t.request('POST', `/v1/client_invoices/${draft.body.id}/void`, { auth: acme.apiKey });
    assert.equal(voidPaid.status, 409);
    assert.equal(voidPaid.body.error.code, 'invalid_invoice_state');
    assert.equal((await t.request('GET', `/v1/client_invoices/${draft.body.id}`, { auth: globex.apiKey })).status, 404);

    // A voided draft releases its timesheets: the next invoice bills them again, numbered next.
    const third = await t.request('POST', '/v1/timesheets/placements', {
      auth: acme.apiKey,
      body: placementBody({ worker_id: 'wrk_9', client_company_id: 'cli_88' }),
    });
    const ts = await t.request('POST', '/v1/timesheets', {
      auth: acme.apiKey,
      body: { placement_id: third.body.id, period_start: '2026-11-23', entries: [shift(2, '09:00', '13:00', 0)] },
    });
    await t.request('POST', `/v1/timesheets/${ts.body.id}/submit`, { auth: acme.apiKey });
    assert.equal((await post(linkIn('sam@harbor.example').path, { decision: 'approve' })).status, 200);
    const body = { client_company_id: 'cli_88', period_start: '2026-11-23', period_end: '2026-11-23' };
    const first = await t.request('POST', '/v1/client_invoices', { auth: acme.apiKey, body });
    assert.equal((await t.request('POST', `/v1/client_invoices/${first.body.id}/void`, { auth: acme.apiKey })).body.status, 'void');
    const again = await t.request('POST', '/v1/client_invoices', { auth: acme.apiKey, body });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.total, 18000);
    const numbered = await t.request('POST', `/v1/client_invoices/${again.body.id}/finalize`, { auth: acme.apiKey });
    assert.equal(Number(numbered.body.number.slice(4)), Number(open.body.number.slice(4)) + 1, 'gapless per agency: the voided draft took no number');
  });
});
