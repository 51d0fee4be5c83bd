/**
 * What a candidate sees, checked with axe-core in Debian's Chromium: the demo listing page,
 * the sandbox consent page and every state of the widget, each at 390 px (a phone) and
 * 1280 px, in the light and the dark colour scheme (the widget on `theme="auto"` follows
 * it), and the shift confirmation page an employee opens from an SMS (Arabic, right to left).
 * No serious or critical violation, and nothing wider than the viewport. One browser,
 * each state reached once and then audited in all four combinations.
 *
 * Callbacks of page.evaluate run in the page, where `(globalThis as any)` is the window.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DemoCredentials } from '../../src/standalone/demo/demo-data';
import { hostRoutes } from '../../src/standalone/demo/demo-pages';
import { launchChromium, listingPage, skipWithoutChromium, startPageServer, type PageServer } from '../helpers/browser';
import { licenseProfileApply } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { skipBecause } from '../helpers/skip';
import { activateLicense } from '../helpers/hooks';
import { SignedLinks } from '../../src/features/messages/domain/signed-links';
import { deriveKey } from '../../src/platform/security/key-derivation';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
];
const SCHEMES = ['light', 'dark'] as const;
const QUESTIONS = [
  { key: 'years_experience', label: 'Years of professional experience', type: 'number', required: true },
  { key: 'work_authorization', label: 'Are you authorized to work in this country?', type: 'boolean', required: true },
  { key: 'start_date', label: 'When could you start?', type: 'select', required: false, options: ['Immediately', 'Later'] },
];

interface Finding {
  where: string;
  problem: string;
}

describe('browser: accessibility of the candidate’s pages (axe-core, 390 and 1280 px, light and dark)', function () {
  this.timeout(120_000);
  let t: TestHost;
  let browser: Browser;
  let context: BrowserContext;
  let pages: PageServer;
  let org: { organizationId: string; apiKey: string };
  let listingId: string;
  let closedListingId: string;
  let demo: DemoCredentials | undefined;
  const findings: Finding[] = [];
  const audited: string[] = [];

  before(async function () {
    skipWithoutChromium(this);
    t = await startTestHost({ hostRoutes: (host) => hostRoutes(host, { demo: () => demo }) });
    org = await t.createOrganization('Accessible Works');
    listingId = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Accessibility Engineer', questions: QUESTIONS })).id;
    closedListingId = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Filled role', questions: [], status: 'closed' })).id;
    demo = { organization_id: org.organizationId, listing_id: listingId, api_key: org.apiKey };
    const scriptUrl = `${t.baseUrl}/widgets/profile-apply.js`;
    pages = await startPageServer((url) => {
      if (url.pathname !== '/listing') return undefined;
      const attributes: Record<string, string> = {
        'organization-id': org.organizationId,
        'listing-id': url.searchParams.get('listing') ?? listingId,
        theme: 'auto',
      };
      return listingPage({ scriptUrl, attributes, pageStyle: '@media (prefers-color-scheme:dark){body{background:#111;color:#eee}}' });
    });
    const settings = await t.request('PATCH', '/v1/organization/settings', {
      auth: org.apiKey,
      body: { profile_apply: { enabled: true, allowed_origins: [pages.origin, new URL(t.baseUrl).origin] } },
    });
    assert.equal(settings.status, 200, settings.text);
    await licenseProfileApply(t, org.apiKey);
    browser = await launchChromium();
    // axe is injected as a script, which the pages' own CSP would refuse.
    context = await browser.newContext({ bypassCSP: true, viewport: VIEWPORTS[1] });
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await pages?.close();
    await t?.close();
  });

  /** Audits `page` as it stands in every viewport and scheme; `ready` re-checks the state after each change. */
  async function audit(page: Page, where: string): Promise<void> {
    if (!(await page.evaluate(() => typeof (globalThis as any).axe === 'object'))) await page.addScriptTag({ content: AXE_SOURCE });
    for (const viewport of VIEWPORTS) {
      for (const colorScheme of SCHEMES) {
        await page.setViewportSize(viewport);
        // Reduced motion: the widget then has no colour transitions, so axe reads settled colours.
        await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
        await page.evaluate(
          () => new Promise((resolve) => (globalThis as any).requestAnimationFrame(() => (globalThis as any).requestAnimationFrame(resolve))),
        );
        const label = `${where} @${viewport.width}px ${colorScheme}`;
        audited.push(label);
        const result = await page.evaluate(async () => {
          const w = globalThis as any;
          const report = await w.axe.run(w.document, { resultTypes: ['violations'] });
          const root = w.document.documentElement;
          return {
            violations: report.violations
              .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
              .map(
                (v: any) =>
                  `${v.impact} ${v.id}: ${v.nodes
                    .slice(0, 3)
                    .map((n: any) => JSON.stringify(n.target))
                    .join(', ')}`,
              ),
            scrollWidth: root.scrollWidth,
            clientWidth: root.clientWidth,
          };
        });
        for (const violation of result.violations) findings.push({ where: label, problem: violation });
        if (result.scrollWidth > result.clientWidth)
          findings.push({ where: label, problem: `horizontal overflow: ${result.scrollWidth}px in a ${result.clientWidth}px viewport` });
      }
    }
    await page.setViewportSize(VIEWPORTS[1]!);
    await page.emulateMedia({ colorScheme: 'light' });
  }

  const state = (page: Page) => page.locator('profile-apply').getAttribute('data-state');
  const liveText = (page: Page) => page.locator('profile-apply .msg[role=status]');

  async function openListing(query = ''): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${pages.origin}/listing${query}`);
    return page;
  }

  async function openPopup(page: Page): Promise<Page> {
    const button = page.getByRole('button', { name: 'Apply with profile' });
    await button.waitFor();
    const [popup] = await Promise.all([page.waitForEvent('popup'), button.click()]);
    await popup.getByRole('button', { name: 'Deny' }).waitFor();
    return popup;
  }

  async function decide(popup: Page, button: string): Promise<void> {
    const closed = popup.waitForEvent('close', { timeout: 15_000 });
    await popup.getByRole('button', { name: button }).click();
    await closed;
  }

  it('the demo listing page: the embed code scrolls inside a focusable region instead of widening a phone', async () => {
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/demo`);
    await page.getByRole('button', { name: 'Apply with profile' }).waitFor();
    // The developer's embed code is folded behind a toggle (the candidate's button comes first).
    await page.getByText('Embed this button on your own page').click();
    const code = page.getByRole('region', { name: 'Embed code' });
    assert.equal(await code.getAttribute('tabindex'), '0', 'reachable by keyboard, so it can be scrolled');
    await page.setViewportSize(VIEWPORTS[0]!);
    const scroll = await code.evaluate((el: any) => ({ scrollWidth: el.scrollWidth, clientWidth: el.clientWidth }));
    assert.ok(scroll.scrollWidth > scroll.clientWidth, 'the code block scrolls on a phone');
    await page.setViewportSize(VIEWPORTS[1]!);
    await audit(page, 'demo page');
    // The demo's language switch: the widget re-words itself in place, right to left for Arabic.
    await page.getByLabel('Widget language').selectOption('ar');
    await page.getByRole('button', { name: 'التقدّم بملفي الشخصي' }).waitFor();
    assert.equal(await page.locator('profile-apply .r').getAttribute('dir'), 'rtl');
    await audit(page, 'demo page, widget in Arabic');
    await page.getByLabel('Widget language').selectOption('');
    await page.getByRole('button', { name: 'Apply with profile' }).waitFor();
    const icon = await fetch(`${t.baseUrl}/favicon.ico`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('content-type'), 'image/x-icon');
    const bytes = Buffer.from(await icon.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], [0, 0, 1, 0], 'an ICO file');
    assert.ok(bytes.subarray(22, 30).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'holding a PNG');
    await page.close();
  });

  it('the sandbox consent page and every widget state along the way', async () => {
    const page = await openListing();
    await page.getByRole('button', { name: 'Apply with profile' }).waitFor();
    assert.equal(await state(page), 'idle');
    await audit(page, 'widget idle');

    // Waiting on the popup; the popup is the sandbox consent page, naming who asks.
    const popup = await openPopup(page);
    assert.equal(await state(page), 'waiting');
    await audit(page, 'widget waiting');
    await popup.getByRole('heading', { name: 'Accessible Works wants to read your profile' }).waitFor();
    await popup.getByText('For your application to Accessibility Engineer').waitFor();
    assert.equal(await popup.getByRole('main').count(), 1, 'a main landmark');
    await audit(popup, 'consent page');
    await decide(popup, 'Deny');

    // Declined: neutral, not an error.
    await liveText(page).filter({ hasText: 'You chose not to share your profile' }).waitFor();
    assert.equal(await liveText(page).getAttribute('class'), 'msg');
    await audit(page, 'widget idle after a declined consent');

    // The form, with field errors.
    const second = await openPopup(page);
    await decide(second, 'Authorize as Ada Lovelace');
    await page.getByRole('heading', { name: 'Applying as Ada Lovelace' }).waitFor({ timeout: 15_000 });
    await audit(page, 'widget form');
    await page.getByRole('button', { name: 'Submit application' }).click();
    await page.getByText('This question is required.').waitFor();
    await audit(page, 'widget form with errors');

    // Submitted.
    await page.getByLabel('Years of professional experience').fill('6');
    await page.getByRole('radio', { name: 'Yes' }).check();
    await page.getByRole('button', { name: 'Submit application' }).click();
    await page.getByRole('heading', { name: 'Application submitted' }).waitFor({ timeout: 15_000 });
    await audit(page, 'widget submitted');

    // Already applied, said right after authorizing.
    await page.reload();
    const third = await openPopup(page);
    await decide(third, 'Authorize as Ada Lovelace');
    await page.getByRole('heading', { name: 'You have already applied' }).waitFor({ timeout: 15_000 });
    await audit(page, 'widget already applied');
    await page.close();
  });

  it('the widget’s other states: popup blocked, listing unavailable, attributes invalid', async () => {
    const blocked = await context.newPage();
    await blocked.addInitScript(() => {
      (globalThis as any).open = () => null;
    });
    await blocked.goto(`${pages.origin}/listing`);
    await blocked.getByRole('button', { name: 'Apply with profile' }).click();
    await blocked.getByRole('button', { name: 'Continue in this tab' }).waitFor();
    await audit(blocked, 'widget popup blocked');
    await blocked.close();

    const closed = await openListing(`?listing=${closedListingId}`);
    await closed.getByRole('heading', { name: 'Applications unavailable' }).waitFor();
    await audit(closed, 'widget unavailable');
    await closed.evaluate(() => (globalThis as any).document.querySelector('profile-apply').setAttribute('listing-id', 'job/42'));
    await closed.getByRole('heading', { name: 'This apply button is not set up correctly' }).waitFor();
    await audit(closed, 'widget invalid');
    await closed.close();
  });

  it('the shift confirmation page (an employee’s, in Arabic), before and after the answer', async () => {
    await activateLicense(t, org.apiKey, 'scheduling.shift_scheduling');
    const start = Date.now() + 72 * 3_600_000;
    const shift = await t.request('POST', '/v1/shifts', {
      auth: org.apiKey,
      body: {
        employee: { id: 'emp_salma', name: 'سلمى حداد', phone: '+14155550199', timezone: 'Asia/Dubai', language: 'ar' },
        location: 'Accessible Works Café, 1 Harbour Road',
        role: 'Barista',
        notes: 'Please bring your apron and arrive ten minutes early.',
        starts_at: new Date(start).toISOString(),
        ends_at: new Date(start + 8 * 3_600_000).toISOString(),
      },
    });
    assert.equal(shift.status, 201, shift.text);
    // The link the SMS carries, signed as the plugin signs it.
    const token = new SignedLinks(deriveKey(t.config.secretKey, 'shift-links')).sign({ p: 'shift_confirm', o: org.organizationId, r: shift.body.id });
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/v1/shifts/confirm?token=${token}`);
    await page.getByRole('button', { name: 'سأحضر' }).waitFor();
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    await audit(page, 'shift confirmation page');
    await page.getByRole('button', { name: 'سأحضر' }).click();
    await page.getByRole('status').filter({ hasText: 'شكرًا، تم تأكيد نوبتك.' }).waitFor();
    await audit(page, 'shift confirmation page, confirmed');
    await page.close();
  });

  it('found no serious or critical violation and no horizontal overflow anywhere', function () {
    if (audited.length === 0) skipBecause(this, 'no page was audited (Chromium missing)');
    assert.ok(audited.length >= 4 * 15, `audited ${audited.length} combinations`);
    assert.deepEqual(findings, []);
  });
});
