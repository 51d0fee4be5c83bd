/**
 * The demo's two pages on a phone (390 × 844, Debian's Chromium): the listing page shows
 * the Apply button within the first screen, right after the listing's summary (the
 * developer's embed code comes later, behind a toggle); the pipeline page fits the width
 * with a full application on it, and shows the answers in the listing's question order.
 * axe-core finds no serious or critical violation on either, light or dark.
 *
 * Callbacks of page.evaluate run in the page, where `(globalThis as any)` is the window.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_QUESTIONS, type DemoCredentials } from '../../src/standalone/demo/demo-data';
import { hostRoutes } from '../../src/standalone/demo/demo-pages';
import { launchChromium, skipWithoutChromium } from '../helpers/browser';
import { licenseProfileApply } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { width: 390, height: 844 };

async function overflow(page: Page): Promise<{ scrollWidth: number; clientWidth: number }> {
  return page.evaluate(() => {
    const root = (globalThis as any).document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
}

async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => typeof (globalThis as any).axe === 'object'))) await page.addScriptTag({ content: AXE_SOURCE });
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    const violations: string[] = await page.evaluate(async () => {
      const w = globalThis as any;
      const report = await w.axe.run(w.document, { resultTypes: ['violations'] });
      return report.violations
        .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
        .map((v: any) => `${v.impact} ${v.id}: ${v.nodes.map((n: any) => JSON.stringify(n.target)).join(', ')}`);
    });
    found.push(...violations.map((v) => `${colorScheme}: ${v}`));
  }
  return found;
}

describe('browser: the demo listing and pipeline pages on a phone (390 px)', function () {
  this.timeout(90_000);
  let t: TestHost;
  let browser: Browser;
  let context: BrowserContext;
  let demo: DemoCredentials | undefined;

  before(async function () {
    skipWithoutChromium(this);
    t = await startTestHost({ hostRoutes: (host) => hostRoutes(host, { demo: () => demo }) });
    const org = await t.createOrganization('Demo Organization');
    const listing = await t.host.listings.create({ organizationId: org.organizationId, title: 'Senior Backend Engineer', questions: DEMO_QUESTIONS });
    demo = { organization_id: org.organizationId, listing_id: listing.id, api_key: org.apiKey };
    const settings = await t.request('PATCH', '/v1/organization/settings', {
      auth: org.apiKey,
      body: { profile_apply: { enabled: true, allowed_origins: [new URL(t.baseUrl).origin] } },
    });
    assert.equal(settings.status, 200, settings.text);
    await licenseProfileApply(t, org.apiKey);
    // A full application, with the answers in another key order than the listing's questions
    // (PostgreSQL's jsonb keeps keys shortest first, which is how they came back before).
    await t.host.pipeline.deliver({
      applicationId: 'app_phone0000000000000001',
      organizationId: org.organizationId,
      listingId: listing.id,
      profileUserId: 'usr_sandbox_ada_lovelace_0001',
      candidateName: 'Ada Lovelace-Byron, Countess of Lovelace',
      status: 'submitted',
      coverLetter: 'I would love to build reliable services with you.\nhttps://example.com/a/very/long/link/that/must/wrap/on/a/phone/screen/0123456789',
      answers: { start_date: 'Within a month', years_experience: 12, work_authorization: true },
      importedSkills: ['TypeScript', 'PostgreSQL', 'Distributed systems', 'Observability', 'Analytical engines'],
      importedCredentials: [
        { title: 'Certified Kubernetes Application Developer', issuer: 'The Linux Foundation', verified: true, issued_at: '2023-04-01' },
        { title: 'AWS Certified Solutions Architect – Professional', issuer: 'Amazon Web Services', verified: false, issued_at: '2021-11-15' },
      ],
      experienceSummary: { total_years: 12, current_title: 'Principal Software Engineer', current_company: 'Analytical Engines International' },
      workHistory: [
        { title: 'Principal Software Engineer', company: 'Analytical Engines International', start_date: '2020-01-01', end_date: null, verified: true },
        { title: 'Senior Backend Engineer', company: 'Difference Engine Company Limited', start_date: '2015-06-01', end_date: '2019-12-31', verified: false },
        { title: 'Software Engineer', company: 'Babbage & Co', start_date: '2012-09-01', end_date: '2015-05-31' },
      ],
      profileUrl: 'https://profiles.example.com/u/ada-lovelace-byron-countess-of-lovelace',
      submittedAt: new Date(),
    });
    browser = await launchChromium();
    // axe is injected as a script, which the pages' own CSP would refuse.
    context = await browser.newContext({ bypassCSP: true, viewport: PHONE, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await t?.close();
  });

  it('the listing page: the Apply button within the first screen, right after the summary; no overflow; axe clean', async () => {
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/demo`);
    const button = page.getByRole('button', { name: 'Apply with profile' });
    await button.waitFor();
    const buttonBox = (await button.boundingBox())!;
    const summaryBox = (await page.locator('[data-listing-summary]').boundingBox())!;
    assert.ok(summaryBox, 'the page marks the listing summary');
    assert.ok(
      buttonBox.y >= summaryBox.y + summaryBox.height - 1,
      `the button (y=${buttonBox.y}) comes after the summary (ends at ${summaryBox.y + summaryBox.height})`,
    );
    assert.ok(
      buttonBox.y + buttonBox.height <= PHONE.height,
      `the button ends at ${buttonBox.y + buttonBox.height}px, below the first ${PHONE.height}px screen`,
    );
    // The developer's embed code is not in the candidate's way: behind a toggle, below the button.
    const code = page.getByRole('region', { name: 'Embed code' });
    assert.equal(await code.isVisible(), false, 'the embed code is folded away');
    await page.getByText('Embed this button on your own page').click();
    await code.waitFor();
    const codeBox = (await code.boundingBox())!;
    assert.ok(codeBox.y > buttonBox.y + buttonBox.height, 'the embed code sits below the button');
    const width = await overflow(page);
    assert.ok(width.scrollWidth <= width.clientWidth, `the listing page is ${width.scrollWidth}px wide in a ${width.clientWidth}px viewport`);
    assert.deepEqual(await seriousViolations(page), []);
    await page.close();
  });

  it('the pipeline page: fits the width and lists the answers in the listing’s question order; axe clean', async () => {
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/demo/pipeline`);
    const card = page.locator('section[data-application-id="app_phone0000000000000001"]');
    await card.waitFor();
    const width = await overflow(page);
    assert.ok(width.scrollWidth <= width.clientWidth, `the pipeline page is ${width.scrollWidth}px wide in a ${width.clientWidth}px viewport`);
    const answers = card.locator('table', { has: page.getByRole('rowheader', { name: DEMO_QUESTIONS[0]!.label }) }).locator('tbody tr th');
    assert.deepEqual(
      await answers.allTextContents(),
      DEMO_QUESTIONS.map((q) => q.label),
    );
    assert.deepEqual(await seriousViolations(page), []);
    await page.close();
  });
});
