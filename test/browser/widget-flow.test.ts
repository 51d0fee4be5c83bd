/**
 * The candidate's whole flow in Debian's Chromium: a listing page on an allowed origin
 * that is not the service's embeds <profile-apply>; the candidate goes through the
 * sandbox provider's consent page and lands as a stored application with imported
 * skills. Also: denied consent, a closed popup, a required question left empty, a
 * duplicate application, both themes (screenshots in test-artifacts/), broken
 * attributes, the demo and pipeline pages, and a page on an origin that is not allowed.
 *
 * Callbacks of page.evaluate run in the page, where `(globalThis as any)` is the window
 * (the main tsconfig has no DOM lib).
 */
import { strict as assert } from 'node:assert';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hostRoutes } from '../../src/standalone/demo/demo-pages';
import type { DemoCredentials } from '../../src/standalone/demo/demo-data';
import { artifactPath, launchChromium, listingPage, skipWithoutChromium, startPageServer, type PageServer } from '../helpers/browser';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { licenseProfileApply } from '../helpers/profile-flow';

const QUESTIONS = [
  { key: 'years_experience', label: 'Years of professional experience', type: 'number', required: true },
  { key: 'work_authorization', label: 'Are you authorized to work in this country?', type: 'boolean', required: true },
  { key: 'start_date', label: 'When could you start?', type: 'select', required: false, options: ['Immediately', 'Within a month', 'Later'] },
  { key: 'portfolio', label: 'Link to a project you are proud of', type: 'text', required: false },
];
const BUTTON_TEXT = 'Apply with my profile';

/** Polls `read` until `done` holds (CSS transitions take a moment), at most 3 s; returns the last value. */
async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 30 && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

interface RecordedEvent {
  type: string;
  detail: Record<string, any>;
  target: string;
}

describe('browser: the <profile-apply> widget, end to end', function () {
  this.timeout(60_000);
  let t: TestHost;
  let browser: Browser;
  let allowed: PageServer;
  let stranger: PageServer;
  let org: { organizationId: string; apiKey: string };
  let listingId: string;
  let demo: DemoCredentials | undefined;
  let context: BrowserContext;

  before(async function () {
    skipWithoutChromium(this);
    t = await startTestHost({ hostRoutes: (host) => hostRoutes(host, { demo: () => demo }) });
    org = await t.createOrganization('Widget Works');
    listingId = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Backend Engineer', questions: QUESTIONS })).id;
    demo = { organization_id: org.organizationId, listing_id: listingId, api_key: org.apiKey };
    const scriptUrl = `${t.baseUrl}/widgets/profile-apply.js`;
    const render = (url: URL) => {
      if (url.pathname === '/forge') {
        // A page on another origin, opened in the widget's popup, posts a forged success.
        const forged = {
          source: 'hiring-integrations',
          type: 'profile-apply:authorized',
          candidate_token: 'hic_forged',
          expires_at: new Date(Date.now() + 600_000).toISOString(),
          profile_user_id: 'usr_forged',
          organization_id: org.organizationId,
          listing_id: listingId,
          candidate: { name: 'Mallory', headline: '', profile_url: 'https://example.com' },
        };
        return `<!doctype html><title>forge</title><p>forging</p><script>window.opener.postMessage(${JSON.stringify(forged)}, '*');document.title='posted';</script>`;
      }
      if (url.pathname !== '/listing') return undefined;
      const attributes: Record<string, string> = { 'organization-id': org.organizationId, 'listing-id': listingId };
      for (const name of ['theme', 'button-text', 'listing-id']) if (url.searchParams.has(name)) attributes[name] = url.searchParams.get(name)!;
      return listingPage({ scriptUrl, attributes });
    };
    allowed = await startPageServer(render);
    stranger = await startPageServer(render);
    const settings = await t.request('PATCH', '/v1/organization/settings', {
      auth: org.apiKey,
      // Redirect mode returns only to registered listing page URLs.
      body: {
        profile_apply: {
          enabled: true,
          allowed_origins: [allowed.origin, new URL(t.baseUrl).origin],
          return_urls: [`${allowed.origin}/listing?from=board`],
          button_text: BUTTON_TEXT,
        },
      },
    });
    assert.equal(settings.status, 200, settings.text);
    await licenseProfileApply(t, org.apiKey);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await allowed?.close();
    await stranger?.close();
    await t?.close();
  });

  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  });

  afterEach(async () => {
    await context?.close();
  });

  async function openListing(origin = allowed.origin, query = ''): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${origin}/listing${query}`);
    return page;
  }

  const events = (page: Page): Promise<RecordedEvent[]> => page.evaluate(() => (globalThis as any).widgetEvents);
  const liveText = (page: Page) => page.locator('profile-apply .msg[role=status]');
  const focusedInWidget = (page: Page) =>
    page.evaluate(() => {
      const active = (globalThis as any).document.querySelector('profile-apply').shadowRoot.activeElement;
      return active ? { tag: active.tagName.toLowerCase(), text: active.textContent?.trim(), name: active.getAttribute('name') } : null;
    });

  /** Runs `action` and resolves once `popup` has closed (listening first: it may close at once). */
  async function closing(popup: Page, action: () => Promise<unknown>): Promise<void> {
    const closed = popup.isClosed() ? Promise.resolve() : popup.waitForEvent('close', { timeout: 15_000 });
    await action();
    await closed;
  }

  /** Clicks the widget's button and authorizes in the sandbox popup as `candidate`. */
  async function authorizeAs(page: Page, candidate: string): Promise<void> {
    const button = page.getByRole('button', { name: BUTTON_TEXT });
    await button.waitFor();
    const [popup] = await Promise.all([page.waitForEvent('popup'), button.click()]);
    await closing(popup, () => popup.getByRole('button', { name: `Authorize as ${candidate}` }).click());
    await page.getByRole('heading', { name: `Applying as ${candidate}` }).waitFor({ timeout: 15_000 });
  }

  async function applicationsOf(profileName: string) {
    const list = await t.request('GET', `/v1/opportunities/listings/${listingId}/applications?limit=100`, { auth: org.apiKey });
    assert.equal(list.status, 200, list.text);
    return (list.body.data as any[]).filter((a) => a.candidate?.name === profileName);
  }

  it('takes a candidate from the button through the sandbox consent page to a stored application with imported skills', async () => {
    const page = await openListing();
    await authorizeAs(page, 'Ada Lovelace');
    assert.deepEqual(await focusedInWidget(page), { tag: 'h3', text: 'Applying as Ada Lovelace', name: null }, 'focus moves to the form');

    await page.getByLabel('Years of professional experience').fill('7');
    await page.getByRole('radio', { name: 'Yes' }).check();
    await page.getByLabel('When could you start?').selectOption('Within a month');
    await page.getByLabel('Cover letter (optional)').fill('I would love to build reliable services with you.');
    await page.locator('profile-apply').screenshot({ path: artifactPath('widget-form-light.png') });
    await page.getByRole('button', { name: 'Submit application' }).click();
    await page.getByRole('heading', { name: 'Application submitted' }).waitFor({ timeout: 15_000 });
    const applicationId = await page.locator('profile-apply code[data-application-id]').textContent();
    assert.match(applicationId ?? '', /^app_[0-9A-Za-z]{20}$/);
    await page.locator('profile-apply').screenshot({ path: artifactPath('widget-submitted.png') });

    // Stored, with the profile's imported context, for the organization.
    const stored = await t.request('GET', `/v1/opportunities/applications/${applicationId}`, { auth: org.apiKey });
    assert.equal(stored.status, 200, stored.text);
    assert.equal(stored.body.status, 'submitted');
    assert.equal(stored.body.listing_id, listingId);
    assert.ok(stored.body.imported_skills.includes('TypeScript'), `imported skills: ${JSON.stringify(stored.body.imported_skills)}`);
    assert.ok(stored.body.imported_credentials.length > 0);
    assert.ok(stored.body.experience_summary.total_years > 0);
    assert.deepEqual(stored.body.answers, { years_experience: 7, work_authorization: true, start_date: 'Within a month' });
    assert.equal(stored.body.cover_letter, 'I would love to build reliable services with you.');

    // The page heard about it; no event carries the candidate token.
    const recorded = await events(page);
    assert.deepEqual(
      recorded.map((e) => e.type),
      ['profile-apply:authorized', 'profile-apply:submitted'],
    );
    assert.equal(recorded[0]!.detail.candidate.name, 'Ada Lovelace');
    assert.equal(recorded[0]!.detail.organizationId, org.organizationId);
    assert.match(recorded[0]!.detail.profileUserId, /^usr_/);
    assert.deepEqual(recorded[1]!.detail, {
      organizationId: org.organizationId,
      listingId,
      applicationId,
      status: 'submitted',
      profileUserId: recorded[0]!.detail.profileUserId,
    });
    assert.doesNotMatch(JSON.stringify(recorded), /token|hic_/i);

    // The pipeline page shows it once delivered (delivery runs in the background).
    let html = '';
    for (let i = 0; i < 60 && !html.includes(applicationId!); i++) {
      html = (await t.request('GET', '/demo/pipeline')).text;
      if (!html.includes(applicationId!)) await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(html.includes(applicationId!), 'the application reaches the pipeline page');
    const pipeline = await context.newPage();
    await pipeline.goto(`${t.baseUrl}/demo/pipeline`);
    const card = pipeline.locator(`section[data-application-id="${applicationId}"]`);
    await card.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    await card.getByText('TypeScript', { exact: true }).waitFor();
    for (const credential of stored.body.imported_credentials) await card.getByText(credential.title, { exact: true }).first().waitFor();
    await card.getByText(stored.body.experience_summary.current_title, { exact: false }).first().waitFor();
    await card.getByText('Within a month').waitFor();
    // The work history, newest first, with the provider's verified flag where it gave one.
    assert.deepEqual(
      stored.body.work_history.map((p: { company: string }) => p.company),
      ['Northwind Logistics', 'Analytical Engines Foundation', 'Contoso Ltd'],
    );
    const positions = card.locator('table', { has: pipeline.getByRole('columnheader', { name: 'Company' }) }).locator('tbody tr');
    assert.deepEqual(await positions.locator('td:nth-child(2)').allTextContents(), ['Northwind Logistics', 'Analytical Engines Foundation', 'Contoso Ltd']);
    assert.deepEqual(await positions.locator('td:nth-child(5)').allTextContents(), ['Verified', '—', 'Unverified']);
    await pipeline.screenshot({ path: artifactPath('pipeline-page.png'), fullPage: true });

    // The same candidate again: told right after authorizing, before any form, once, as
    // information, with the first application's date and id.
    const again = await openListing();
    const button = again.getByRole('button', { name: BUTTON_TEXT });
    await button.waitFor();
    const [popup] = await Promise.all([again.waitForEvent('popup'), button.click()]);
    await closing(popup, () => popup.getByRole('button', { name: 'Authorize as Ada Lovelace' }).click());
    await again.getByRole('heading', { name: 'You have already applied' }).waitFor({ timeout: 15_000 });
    assert.equal(await again.locator('profile-apply').getAttribute('data-state'), 'done');
    assert.equal(await again.getByLabel('Years of professional experience').count(), 0, 'no form');
    assert.equal(await again.locator('profile-apply code[data-application-id]').textContent(), applicationId);
    const today = new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date(stored.body.created_at));
    await again.getByText(`You applied to this listing on ${today}.`).waitFor();
    assert.equal(await again.getByText(/already applied/i).count(), 1, 'said once');
    assert.equal(await liveText(again).textContent(), '', 'no red status line');
    const duplicate = (await events(again)).find((e) => e.type === 'profile-apply:error');
    assert.deepEqual([duplicate?.detail.code, duplicate?.detail.stage, duplicate?.detail.applicationId], ['duplicate_application', 'authorize', applicationId]);
    assert.equal((await applicationsOf('Ada Lovelace')).length, 1);
  });

  it("shows, before consent, the credentials the listing checks (the public listing's requirements)", async () => {
    const requirements = [
      { key: 'rn_license', label: 'RN license', credential_type: 'License' },
      { key: 'food_handler', label: 'Food handler card', credential_type: 'FoodHandlerCard' },
    ];
    const set = (body: unknown) => t.request('PATCH', `/v1/listings/${listingId}`, { auth: org.apiKey, body });
    assert.equal((await set({ requirements })).status, 200);
    try {
      const page = await openListing();
      await page.getByText('Checked for this job: RN license and Food handler card.').waitFor();
      await page.getByRole('button', { name: BUTTON_TEXT }).waitFor();
    } finally {
      assert.equal((await set({ requirements: [] })).status, 200);
    }
  });

  it('tells the candidate when consent is denied, and nothing is stored', async () => {
    const page = await openListing();
    const button = page.getByRole('button', { name: BUTTON_TEXT });
    await button.waitFor();
    const [popup] = await Promise.all([page.waitForEvent('popup'), button.click()]);
    await page.getByRole('heading', { name: 'Authorize in the pop-up window' }).waitFor();
    await closing(popup, () => popup.getByRole('button', { name: 'Deny' }).click());
    await liveText(page).filter({ hasText: 'You chose not to share your profile' }).waitFor();
    assert.equal(await liveText(page).getAttribute('class'), 'msg', 'neutral, not an error');
    const recorded = await events(page);
    assert.deepEqual(
      recorded.map((e) => [e.type, e.detail.code, e.detail.stage]),
      [['profile-apply:error', 'consent_denied', 'authorize']],
    );
    assert.equal((await focusedInWidget(page))?.text, BUTTON_TEXT, 'focus returns to the button');
    assert.equal(await page.locator('profile-apply').getAttribute('data-state'), 'idle');
  });

  it('notices a popup closed before authorizing and can start again', async () => {
    const page = await openListing();
    const button = page.getByRole('button', { name: BUTTON_TEXT });
    await button.waitFor();
    const [popup] = await Promise.all([page.waitForEvent('popup'), button.click()]);
    await popup.getByRole('button', { name: 'Deny' }).waitFor();
    await popup.close();
    await liveText(page).filter({ hasText: 'The sign-in window was closed before you finished' }).waitFor({ timeout: 5_000 });
    assert.deepEqual(
      (await events(page)).map((e) => [e.type, e.detail.reason]),
      [['profile-apply:cancel', 'popup_closed']],
    );
    // The button works again.
    const [second] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: BUTTON_TEXT }).click()]);
    await second.getByRole('button', { name: 'Deny' }).waitFor();
    await closing(second, () => page.getByRole('button', { name: 'Cancel' }).click());
    assert.deepEqual(
      (await events(page)).map((e) => e.detail.reason),
      ['popup_closed', 'user_cancelled'],
    );
  });

  it('marks a required question left empty, per field, and submits once it is answered', async () => {
    const page = await openListing();
    await authorizeAs(page, 'Grace Hopper');
    await page.getByRole('radio', { name: 'No' }).check();
    await page.getByRole('button', { name: 'Submit application' }).click();
    const years = page.getByLabel('Years of professional experience');
    await page.getByText('This question is required.').waitFor();
    assert.equal(await years.getAttribute('aria-invalid'), 'true');
    assert.equal(await years.getAttribute('aria-describedby'), 'e-years_experience');
    assert.equal((await focusedInWidget(page))?.name, 'years_experience', 'focus moves to the field');
    assert.equal(await liveText(page).textContent(), 'Please check the highlighted answer.');
    assert.equal(await page.getByRole('radio', { name: 'No' }).isChecked(), true, 'other answers are kept');
    assert.equal((await applicationsOf('Grace Hopper')).length, 0, 'nothing was submitted');

    await years.fill('lots');
    await page.getByRole('button', { name: 'Submit application' }).click();
    await page.getByText('Enter a number.').waitFor();
    // Fixed: the error goes as the candidate types, before any submit.
    await years.fill('12');
    assert.equal(await years.getAttribute('aria-invalid'), null);
    assert.equal(await page.getByText('Enter a number.').count(), 0);
    assert.equal(await liveText(page).textContent(), '', 'the last error gone, the status line is clear');
    assert.equal((await focusedInWidget(page))?.name, 'years_experience', 'focus stays');
    await page.getByRole('button', { name: 'Submit application' }).click();
    await page.getByRole('heading', { name: 'Application submitted' }).waitFor({ timeout: 15_000 });
    // Counted in words that fit: Grace's profile shares skills and experience; never "0 credentials".
    const shared = await page
      .locator('profile-apply')
      .getByText(/^Shared from your profile/)
      .textContent();
    assert.equal(shared, 'Shared from your profile: 2 verified skills, 1 credential, and your work history.');
    const [grace] = await applicationsOf('Grace Hopper');
    assert.deepEqual(grace.answers, { years_experience: 12, work_authorization: false });
  });

  it('asks for an email when the listing orders a background check, prefilled with the verified one from the profile', async () => {
    const courier = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Courier', questions: [] })).id;
    const background_check = { package: 'driver_pro', purpose: 'driver', work_location: { country: 'US', state: 'CA' } };
    assert.equal((await t.request('PATCH', `/v1/listings/${courier}`, { auth: org.apiKey, body: { background_check } })).status, 200);
    const page = await openListing(allowed.origin, `?listing-id=${courier}`);
    await authorizeAs(page, 'Ada Lovelace');
    const email = page.getByRole('textbox', { name: /^Email/ });
    assert.deepEqual(
      [await email.inputValue(), await email.getAttribute('type'), await email.getAttribute('aria-required')],
      ['ada.lovelace@sandbox.example', 'email', 'true'],
    );
    assert.equal(await page.getByLabel('Phone (optional)').getAttribute('autocomplete'), 'tel');
    // Emptied, the server's 400 lands on the field; filled again, the application carries it.
    await email.fill('');
    await page.getByRole('button', { name: 'Submit application' }).click();
    await page.getByText('This question is required.').waitFor();
    assert.equal(await email.getAttribute('aria-invalid'), 'true');
    await email.fill('ada@example.com');
    await page.getByLabel('Phone (optional)').fill('+44 20 7946 0000');
    await page.getByRole('button', { name: 'Submit application' }).click();
    await page.getByRole('heading', { name: 'Application submitted' }).waitFor({ timeout: 15_000 });
    const list = await t.request('GET', `/v1/opportunities/listings/${courier}/applications`, { auth: org.apiKey });
    assert.deepEqual(list.body.data[0].contact, { email: 'ada@example.com', phone: '+44 20 7946 0000' });
  });

  it("shows the server's 400 on the field its param names (the listing changed under an open form)", async () => {
    const page = await openListing();
    await authorizeAs(page, 'Alan Turing');
    await page.getByLabel('Years of professional experience').fill('4');
    await page.getByRole('radio', { name: 'Yes' }).check();
    await page.getByLabel('When could you start?').selectOption('Later');
    // The organization edits the listing's options while the candidate fills in the form.
    const edited = QUESTIONS.map((q) => (q.key === 'start_date' ? { ...q, options: ['Now', 'Next quarter'] } : q));
    await t.host.listings.setQuestions(listingId, edited);
    try {
      await page.getByRole('button', { name: 'Submit application' }).click();
      await page.getByText('This answer is not valid.').waitFor({ timeout: 10_000 });
      const select = page.getByLabel('When could you start?');
      assert.equal(await select.getAttribute('aria-invalid'), 'true');
      assert.equal((await focusedInWidget(page))?.name, 'start_date');
      const error = (await events(page)).find((e) => e.type === 'profile-apply:error');
      assert.deepEqual([error?.detail.code, error?.detail.status, error?.detail.param], ['parameter_invalid', 400, 'answers.start_date']);
      assert.equal((await applicationsOf('Alan Turing')).length, 0);
    } finally {
      await t.host.listings.setQuestions(listingId, QUESTIONS);
    }
  });

  it("ignores a message that does not come from the service's origin, even from its own popup", async () => {
    const page = await openListing();
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: BUTTON_TEXT }).click()]);
    await popup.getByRole('button', { name: 'Deny' }).waitFor();
    await popup.goto(`${stranger.origin}/forge`);
    await popup.waitForFunction(() => (globalThis as any).document.title === 'posted');
    await page.waitForTimeout(300);
    assert.equal(await page.locator('profile-apply').getAttribute('data-state'), 'waiting');
    assert.deepEqual(await events(page), []);
    assert.equal(await page.getByText('Applying as Mallory').count(), 0);
    await closing(popup, () => page.getByRole('button', { name: 'Cancel' }).click());
  });

  it('explains a blocked popup and tries again from the next click', async () => {
    const page = await context.newPage();
    // A popup blocker makes window.open return null; block the first attempt only.
    await page.addInitScript(() => {
      const w = globalThis as any;
      const open = w.open.bind(w);
      let blocked = false;
      w.open = (...args: unknown[]) => (blocked ? open(...args) : ((blocked = true), null));
    });
    await page.goto(`${allowed.origin}/listing`);
    await page.getByRole('button', { name: BUTTON_TEXT }).click();
    await liveText(page).filter({ hasText: 'Your browser blocked the sign-in window' }).waitFor();
    assert.equal((await events(page))[0]?.detail.code, 'popup_blocked');
    assert.equal((await focusedInWidget(page))?.text, BUTTON_TEXT);
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: BUTTON_TEXT }).click()]);
    await popup.getByRole('button', { name: 'Authorize as Katherine Johnson' }).waitFor();
  });

  it('continues in the same tab when popups stay blocked, and comes back to the listing to finish', async () => {
    const page = await context.newPage();
    await page.addInitScript(() => {
      (globalThis as any).open = () => null;
    });
    await page.goto(`${allowed.origin}/listing?from=board#top`);
    await page.getByRole('button', { name: BUTTON_TEXT }).click();
    await page.getByRole('button', { name: 'Continue in this tab' }).click();

    // The consent page, in this tab; then back to the listing page it left.
    await page.getByRole('button', { name: 'Authorize as Katherine Johnson' }).click();
    await page.getByRole('heading', { name: 'Applying as Katherine Johnson' }).waitFor({ timeout: 15_000 });
    assert.equal(page.url(), `${allowed.origin}/listing?from=board`, 'the result fragment is gone from the address bar');
    assert.equal(await page.evaluate(() => (globalThis as any).sessionStorage.length), 0, 'the nonce is used up');
    const authorized = (await events(page)).find((e) => e.type === 'profile-apply:authorized');
    assert.equal(authorized?.detail.candidate.name, 'Katherine Johnson');

    await page.getByLabel('Years of professional experience').fill('12');
    await page.getByRole('radio', { name: 'Yes' }).check();
    await page.getByRole('button', { name: 'Submit application' }).click();
    await page.getByRole('heading', { name: 'Application submitted' }).waitFor({ timeout: 15_000 });
    assert.equal((await applicationsOf('Katherine Johnson')).length, 1);

    // Reloading the page, or a planted fragment without this tab's nonce, authorizes nothing.
    await page.goto(
      `${allowed.origin}/listing#profile-apply-result=${Buffer.from(JSON.stringify({ code: 'hicr_planted', client_state: 'x'.repeat(20) })).toString('base64url')}`,
    );
    await page.getByRole('button', { name: BUTTON_TEXT }).waitFor();
    assert.deepEqual(await events(page), []);
  });

  it('renders the light and dark themes (and auto), isolated from the page styles', async () => {
    const page = await openListing(allowed.origin, '?theme=light&button-text=Quick%20apply');
    const widget = page.locator('profile-apply');
    const button = page.getByRole('button', { name: 'Quick apply' }); // the attribute wins over the settings
    await button.waitFor();
    await page.getByText('Apply to Widget Works').waitFor();
    const styles = () =>
      page.evaluate(() => {
        const root = (globalThis as any).document.querySelector('profile-apply').shadowRoot;
        const frame = (globalThis as any).getComputedStyle(root.querySelector('.r'));
        const btn = (globalThis as any).getComputedStyle(root.querySelector('button'));
        return { background: frame.backgroundColor, color: frame.color, font: frame.fontFamily, button: btn.backgroundColor, buttonColor: btn.color };
      });
    const light = await styles();
    assert.equal(light.background, 'rgb(255, 255, 255)');
    assert.equal(light.button, 'rgb(29, 78, 216)');
    assert.doesNotMatch(light.font, /Georgia/, 'the page font does not leak in');
    assert.notEqual(light.color, 'rgb(187, 0, 0)', 'the page colour does not leak in');
    await widget.screenshot({ path: artifactPath('widget-light.png') });
    // The widget's styles do not leak out either.
    assert.equal(
      await page.evaluate(() => (globalThis as any).getComputedStyle((globalThis as any).document.querySelector('h1')).fontFamily),
      'Georgia, serif',
    );

    await widget.evaluate((el) => el.setAttribute('theme', 'dark'));
    const dark = await settled(
      () => styles(),
      (s) => s.button === 'rgb(147, 197, 253)',
    );
    assert.equal(dark.background, 'rgb(17, 24, 39)');
    assert.equal(dark.button, 'rgb(147, 197, 253)');
    await widget.screenshot({ path: artifactPath('widget-dark.png') });

    await widget.evaluate((el) => el.setAttribute('theme', 'auto'));
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(
      (
        await settled(
          () => styles(),
          (s) => s.background === 'rgb(17, 24, 39)',
        )
      ).background,
      'rgb(17, 24, 39)',
    );
    await page.emulateMedia({ colorScheme: 'light' });
    assert.equal(
      (
        await settled(
          () => styles(),
          (s) => s.background === 'rgb(255, 255, 255)',
        )
      ).background,
      'rgb(255, 255, 255)',
    );

    await widget.evaluate((el) => el.setAttribute('button-text', 'Apply now'));
    await page.getByRole('button', { name: 'Apply now' }).waitFor();
    assert.deepEqual(await events(page), []);
  });

  it('shows a visible error state for missing or invalid attributes, and recovers when they are fixed', async () => {
    const page = await openListing();
    const widget = page.locator('profile-apply');
    await page.getByRole('button', { name: BUTTON_TEXT }).waitFor();
    // Listing ids are the host's (job-42 is fine); a slash cannot be one.
    await widget.evaluate((el) => el.setAttribute('listing-id', 'job/42'));
    await page.getByRole('heading', { name: 'This apply button is not set up correctly' }).waitFor();
    await page.getByText('listing-id "job/42" is not a valid id').waitFor();
    await widget.evaluate((el) => el.removeAttribute('organization-id'));
    await page.getByText('the organization-id attribute is missing').waitFor();
    await widget.evaluate((el) => el.setAttribute('theme', 'purple'));
    await page.getByText('theme "purple" is not one of light, dark, auto').waitFor();
    await widget.screenshot({ path: artifactPath('widget-invalid.png') });
    const codes = (await events(page)).map((e) => [e.type, e.detail.code]);
    assert.ok(codes.length >= 3 && codes.every(([type, code]) => type === 'profile-apply:error' && code === 'invalid_attributes'), JSON.stringify(codes));

    await widget.evaluate(
      (el, ids) => {
        el.setAttribute('organization-id', ids.org);
        el.setAttribute('listing-id', ids.listing);
        el.setAttribute('theme', 'dark');
      },
      { org: org.organizationId, listing: listingId },
    );
    await page.getByRole('button', { name: BUTTON_TEXT }).waitFor();
    assert.equal(await widget.getAttribute('data-state'), 'idle');
  });

  it('serves the demo listing page with the widget on the service itself', async () => {
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/demo`);
    await page.getByRole('heading', { name: 'Backend Engineer', level: 1 }).waitFor();
    await page.getByRole('button', { name: BUTTON_TEXT }).waitFor();
    await page.getByRole('radio', { name: 'Dark' }).check();
    assert.equal(await page.locator('profile-apply').getAttribute('theme'), 'dark');
    await page.getByRole('radio', { name: 'Light' }).check();
    await page.screenshot({ path: artifactPath('demo-page.png'), fullPage: true });
  });

  it('cannot complete the flow from a page on an origin the organization does not allow', async () => {
    const page = await openListing(stranger.origin);
    // The public listing read is refused by CORS: the widget says so instead of offering a flow.
    await liveText(page).filter({ hasText: 'Could not reach the application service' }).waitFor({ timeout: 10_000 });
    const [first] = await events(page);
    assert.equal(first?.type, 'profile-apply:error');
    assert.equal(first?.detail.stage, 'listing');
    let popups = 0;
    page.on('popup', () => popups++);
    await page.getByRole('button', { name: 'Apply with profile' }).click(); // no settings reached: the default text
    await page.waitForTimeout(1000);
    assert.equal(popups, 0, 'no popup opens while the listing cannot be read');

    // Forcing the popup open anyway: the service refuses to start and tells no window anything.
    const connectUrl = `${t.baseUrl}/v1/connect/profile?${new URLSearchParams({ organization_id: org.organizationId, listing_id: listingId, origin: stranger.origin })}`;
    await page.evaluate(() => {
      (globalThis as any).received = [];
      (globalThis as any).addEventListener('message', (e: { data: unknown }) => (globalThis as any).received.push(e.data));
    });
    const [forced] = await Promise.all([page.waitForEvent('popup'), page.evaluate((url) => void (globalThis as any).open(url, 'forced', 'popup'), connectUrl)]);
    await forced.getByText('This page is not allowed to start a profile application').waitFor();
    await page.waitForTimeout(500);
    assert.deepEqual(await page.evaluate(() => (globalThis as any).received), []);

    // And a direct submit from this origin cannot be read by the page.
    const outcome = await page.evaluate(async (url) => {
      try {
        await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer hic_x' }, body: '{}' });
        return 'read';
      } catch (error) {
        return (error as Error).name;
      }
    }, `${t.baseUrl}/v1/opportunities/listings/${listingId}/applications/profile`);
    assert.equal(outcome, 'TypeError');
  });

  it('says applications are paused while billing suspends the organization, and offers the button again once paid', async () => {
    const op = { auth: t.operatorKey };
    const clock = `/v1/billing/operator/organizations/${org.organizationId}/test_clock`;
    const start = Date.now();
    const day = 86_400_000;
    assert.equal((await t.request('POST', clock, { ...op, body: { frozen_time: new Date(start).toISOString() } })).status, 200);
    await t.request('POST', `${clock}/advance`, { ...op, body: { to: new Date(start + 35 * day).toISOString() } });
    const [invoice] = (await t.request('GET', '/v1/billing/invoices', { auth: org.apiKey })).body.data;
    await t.request('POST', `/v1/billing/operator/invoices/${invoice.id}/payment_failed`, { ...op, body: { reason: 'card_declined' } });
    const suspended = await t.request('POST', `${clock}/advance`, { ...op, body: { to: new Date(start + 50 * day).toISOString() } });
    assert.equal(suspended.body.status, 'suspended');

    const page = await openListing();
    await page.getByRole('heading', { name: 'Applications paused' }).waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('profile-apply').getAttribute('data-state'), 'unavailable');
    const [first] = await events(page);
    assert.deepEqual([first?.type, first?.detail.code], ['profile-apply:error', 'payment_required']);

    await t.request('POST', `/v1/billing/operator/invoices/${invoice.id}/mark_paid`, { ...op, body: {} });
    const restored = await openListing();
    await restored.getByRole('button', { name: BUTTON_TEXT }).waitFor({ timeout: 10_000 });
  });
});
