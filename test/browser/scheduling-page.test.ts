/**
 * The candidate's scheduling page in Debian's Chromium: at 390 px (a phone) the candidate
 * books a time with the keyboard-reachable radio buttons; axe-core finds no serious or
 * critical violation and nothing wider than the viewport on the open times (390 px) and on
 * the booked page (1280 px). Real counterparts: xandikos holds the interviewer's calendar, the link arrives
 * by SMTP.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { activateLicense } from '../helpers/hooks';
import { launchChromium, skipWithoutChromium } from '../helpers/browser';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { startXandikos, type Xandikos } from '../helpers/xandikos';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const DAY = 24 * 3600_000;

describe('browser: the candidate’s scheduling page (axe-core, 390 and 1280 px)', function () {
  this.timeout(30_000);
  let t: TestHost;
  let smtp: TestSmtpServer;
  let dav: Xandikos;
  let browser: Browser;
  let apiKey: string;
  let calendarId: string;
  let day = new Date(Date.now() + 4 * DAY);
  while (day.getUTCDay() !== 3) day = new Date(day.getTime() + DAY);
  const date = day.toISOString().slice(0, 10);

  before(async function () {
    // Starting the host (PGlite migrations without DATABASE_URL), xandikos and Chromium.
    this.timeout(90_000);
    skipWithoutChromium(this);
    [smtp, dav] = await Promise.all([startSmtpServer(), startXandikos()]);
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    ({ apiKey } = await t.createOrganization('Accessible Works'));
    await activateLicense(t, apiKey, 'scheduling.interview_scheduling');
    const connect = async (connector: string, settings: Record<string, unknown>) => {
      const created = await t.request('POST', '/v1/integrations/connections', { auth: apiKey, body: { connector, settings, credentials: {} } });
      assert.equal(created.status, 201, created.text);
      assert.equal((await t.request('POST', `/v1/integrations/connections/${created.body.id}/test`, { auth: apiKey })).body.ok, true);
      return created.body.id as string;
    };
    await connect('smtp', { host: 'localhost', port: smtp.port, security: 'starttls', from_email: 'jobs@acme.example', tls_ca: smtp.certificate });
    calendarId = await connect('caldav', { server_url: dav.url, calendar_url: dav.calendarUrl });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    await Promise.all([smtp?.close(), dav?.stop()]);
  });

  async function audit(page: Page, where: string): Promise<string[]> {
    if (!(await page.evaluate(() => typeof (globalThis as any).axe === 'object'))) await page.addScriptTag({ content: AXE_SOURCE });
    const result = await page.evaluate(async () => {
      const w = globalThis as any;
      const report = await w.axe.run(w.document, { resultTypes: ['violations'] });
      return {
        violations: report.violations.filter((v: any) => v.impact === 'serious' || v.impact === 'critical').map((v: any) => `${v.impact} ${v.id}`),
        scrollWidth: w.document.documentElement.scrollWidth,
        clientWidth: w.document.documentElement.clientWidth,
      };
    });
    const problems = result.violations.map((v: string) => `${where}: ${v}`);
    if (result.scrollWidth > result.clientWidth) problems.push(`${where}: ${result.scrollWidth}px wide in ${result.clientWidth}px`);
    return problems;
  }

  // One booking, at 390 px, in Arabic (right to left); then the booked page at 1280 px. Axe once per width.
  let link: string;
  let requestId: string;

  it('books a slot with the keyboard at 390 px; axe finds no serious violation', async () => {
    const created = await t.request('POST', '/v1/scheduling/requests', {
      auth: apiKey,
      body: {
        application_id: 'app_rtl',
        candidate: { name: 'Candidate', email: 'c@example.com', language: 'ar', timezone: 'America/Mexico_City' },
        interviewers: [{ name: 'Grace Hopper', email: 'grace@acme.example', calendar_connection_id: calendarId, timezone: 'UTC' }],
        duration_minutes: 45,
        window: { start: `${date}T00:00:00Z`, end: `${date}T23:59:00Z` },
      },
    });
    assert.equal(created.status, 201, created.text);
    ({ url: link, id: requestId } = created.body);
    await withPage({ width: 390, height: 844 }, async (page) => {
      await page.goto(link);
      assert.deepEqual(await audit(page, 'the open times @390px'), []);
      // Chosen with the keyboard, as a screen-reader user would.
      const radio = page.getByRole('radio').first();
      await radio.focus();
      await page.keyboard.press('Space');
      assert.equal(await radio.isChecked(), true);
      await page.getByRole('button', { name: 'احجز هذا الموعد' }).click();
      await page.getByRole('status').waitFor();
      assert.match((await page.getByRole('status').textContent()) ?? '', /تم حجز مقابلتك/);
    });
    const read = await t.request('GET', `/v1/scheduling/requests/${requestId}`, { auth: apiKey });
    assert.equal(read.body.status, 'booked');
  });

  it('the booked page (move or cancel) at 1280 px: axe finds no serious violation', async () => {
    await withPage({ width: 1280, height: 900 }, async (page) => {
      await page.goto(link);
      assert.match((await page.getByRole('status').textContent()) ?? '', /تم حجز مقابلتك/);
      assert.deepEqual(await audit(page, 'booked @1280px'), []);
    });
  });

  async function withPage(viewport: { width: number; height: number }, use: (page: Page) => Promise<void>): Promise<void> {
    // Axe is injected as a script, which the page's own CSP refuses.
    const context = await browser.newContext({ bypassCSP: true, viewport });
    try {
      await use(await context.newPage());
    } finally {
      await context.close();
    }
  }
});
