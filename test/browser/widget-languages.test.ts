/**
 * The widget in the candidate's language, in Debian's Chromium: each locale renders every
 * state a candidate passes through (the button, the form with field errors, the submitted
 * answer with its counts, "already applied" with its date, the set-up error), and no
 * English string of ours remains in a non-English one. The language comes from the
 * element's `lang`, then the page's, then the browser's; Arabic lays out right to left.
 *
 * Callbacks of page.evaluate run in the page, where `(globalThis as any)` is the window.
 */
import { strict as assert } from 'node:assert';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { en } from '../../src/widget/i18n/en';
import ar from '../../src/widget/i18n/ar';
import de from '../../src/widget/i18n/de';
import es from '../../src/widget/i18n/es';
import fr from '../../src/widget/i18n/fr';
import pt from '../../src/widget/i18n/pt';
import type { Catalog, Entry } from '../../src/widget/i18n/catalog';
import { artifactPath, launchChromium, listingPage, skipWithoutChromium, startPageServer, type PageServer } from '../helpers/browser';
import { licenseProfileApply } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';

const CATALOGS: Record<string, Catalog> = { en, es, fr, de, pt, ar };
const QUESTIONS = [
  { key: 'years', label: 'Years of experience', type: 'number', required: true },
  { key: 'authorized', label: 'Work permit?', type: 'boolean', required: true },
];
const forms = (entry: Entry): string[] => (typeof entry === 'string' ? [entry] : Object.values(entry));
/** Pieces of our English wording long enough to be unmistakable ("Applying as ", "Thank you for applying to "). */
const ENGLISH_FRAGMENTS = Object.values(en)
  .flatMap((entry) => forms(entry as Entry))
  .flatMap((text) => text.split(/\{\w+\}/))
  .map((piece) => piece.trim())
  .filter((piece) => piece.length >= 10);

interface Rendered {
  texts: string[];
  lang: string | null;
  dir: string | null;
  overflow: boolean;
}

describe('browser: the widget in the candidate’s language', function () {
  this.timeout(120_000);
  let t: TestHost;
  let browser: Browser;
  let context: BrowserContext;
  let pages: PageServer;
  let org: { organizationId: string; apiKey: string };
  const listings: Record<string, string> = {};
  /** The organization's and the candidate's words, not ours. */
  const data: string[] = [
    'Polyglot Works',
    'Ada Lovelace',
    'Staff Backend Engineer · distributed systems and data pipelines',
    'AL',
    '*',
    '·',
    ...QUESTIONS.map((q) => q.label),
  ];

  before(async function () {
    skipWithoutChromium(this);
    t = await startTestHost();
    org = await t.createOrganization('Polyglot Works');
    for (const locale of Object.keys(CATALOGS)) {
      const title = `Platform Engineer (${locale})`;
      listings[locale] = (await t.host.listings.create({ organizationId: org.organizationId, title, questions: QUESTIONS })).id;
      data.push(title);
    }
    const scriptUrl = `${t.baseUrl}/widgets/profile-apply.js`;
    pages = await startPageServer((url) => {
      if (url.pathname !== '/listing') return undefined;
      const attributes: Record<string, string> = { 'organization-id': org.organizationId, 'listing-id': url.searchParams.get('listing') ?? listings.en! };
      if (url.searchParams.has('element-lang')) attributes.lang = url.searchParams.get('element-lang')!;
      const pageLang = url.searchParams.get('page-lang');
      return listingPage({ scriptUrl, attributes }).replace('<html lang="en">', pageLang === null ? '<html>' : `<html lang="${pageLang}">`);
    });
    const settings = await t.request('PATCH', '/v1/organization/settings', {
      auth: org.apiKey,
      body: { profile_apply: { enabled: true, allowed_origins: [pages.origin] } },
    });
    assert.equal(settings.status, 200, settings.text);
    await licenseProfileApply(t, org.apiKey);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-US' });
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await pages?.close();
    await t?.close();
  });

  /** Every text of the widget's shadow root (and its labels), its lang and dir, and whether it overflows. */
  const rendered = (page: Page): Promise<Rendered> =>
    page.evaluate(() => {
      const w = globalThis as any;
      const root = w.document.querySelector('profile-apply').shadowRoot;
      const texts: string[] = [];
      const walker = w.document.createTreeWalker(root, 4 /* text */);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.textContent.trim()) texts.push(node.textContent.trim());
      for (const el of root.querySelectorAll('[aria-label],[title],[placeholder]'))
        for (const a of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(a)) texts.push(el.getAttribute(a));
      const frame = root.querySelector('.r');
      return {
        texts,
        lang: frame.getAttribute('lang'),
        dir: frame.getAttribute('dir'),
        overflow: w.document.documentElement.scrollWidth > w.document.documentElement.clientWidth || frame.scrollWidth > frame.clientWidth,
      };
    });

  const button = (locale: string) => forms(CATALOGS[locale]!.button)[0]!;

  async function authorize(page: Page, locale: string): Promise<void> {
    const apply = page.getByRole('button', { name: button(locale) });
    await apply.waitFor();
    const [popup] = await Promise.all([page.waitForEvent('popup'), apply.click()]);
    const closed = popup.waitForEvent('close', { timeout: 15_000 });
    await popup.getByRole('button', { name: 'Authorize as Ada Lovelace' }).click();
    await closed;
  }

  /** Walks one locale through every state; returns what each state showed. */
  async function walk(locale: string): Promise<Record<string, Rendered>> {
    const catalog = CATALOGS[locale]!;
    const text = (key: keyof typeof en) => forms(catalog[key])[0]!;
    const states: Record<string, Rendered> = {};
    const page = await context.newPage();
    await page.goto(`${pages.origin}/listing?page-lang=${locale}&listing=${listings[locale]}`);
    await page.getByRole('button', { name: button(locale) }).waitFor();
    states.idle = await rendered(page);

    await authorize(page, locale);
    await page.getByRole('button', { name: text('submit') }).waitFor({ timeout: 15_000 });
    states.form = await rendered(page);
    await page.getByRole('button', { name: text('submit') }).click();
    await page.getByText(text('required'), { exact: true }).waitFor();
    states.errors = await rendered(page);
    await page.locator('profile-apply').screenshot({ path: artifactPath(`widget-form-errors-${locale}.png`) });
    await page.getByLabel('Years of experience').fill('4');
    await page.getByRole('radio', { name: text('yes') }).check();
    await page.getByRole('button', { name: text('submit') }).click();
    await page.getByRole('heading', { name: text('submitted_title') }).waitFor({ timeout: 15_000 });
    states.done = await rendered(page);
    await page.locator('profile-apply').screenshot({ path: artifactPath(`widget-submitted-${locale}.png`) });

    await page.reload();
    await authorize(page, locale);
    await page.getByRole('heading', { name: text('already_title') }).waitFor({ timeout: 15_000 });
    states.already = await rendered(page);
    const applied = await t.request('GET', `/v1/opportunities/listings/${listings[locale]}/applications?limit=1`, { auth: org.apiKey });
    // The widget sent the language it rendered in with the application (messages to the candidate use it).
    assert.equal(applied.body.data[0].language, locale, `${locale}: the application's language`);
    const date = await page.evaluate(
      ([tag, at]) => new Intl.DateTimeFormat(tag, { dateStyle: 'long' }).format(new Date(at!)),
      [locale, applied.body.data[0].created_at as string],
    );
    assert.ok(
      states.already.texts.some((s) => s.includes(date)),
      `${locale}: the first application's date as "${date}" in ${JSON.stringify(states.already.texts)}`,
    );

    await page.evaluate(() => (globalThis as any).document.querySelector('profile-apply').setAttribute('listing-id', 'job/42'));
    await page.getByRole('heading', { name: text('invalid_title') }).waitFor();
    states.invalid = await rendered(page);
    await page.close();
    return states;
  }

  it('renders every state in English, Spanish, French, German, Portuguese and Arabic, with no English left in the others', async () => {
    const english = await walk('en');
    assert.ok(
      english.done!.texts.some((s) => /^Shared from your profile: 3 verified skills, 2 credentials, and your work history\.$/.test(s)),
      JSON.stringify(english.done!.texts),
    );
    for (const locale of ['es', 'fr', 'de', 'pt', 'ar']) {
      const catalog = CATALOGS[locale]!;
      const same = new Set(
        Object.entries(catalog).flatMap(([key, entry]) => (JSON.stringify(entry) === JSON.stringify((en as Record<string, unknown>)[key]) ? forms(entry) : [])),
      );
      const states = await walk(locale);
      for (const [name, view] of Object.entries(states)) {
        assert.equal(view.lang, locale, `${locale} ${name}: lang`);
        assert.equal(view.dir, locale === 'ar' ? 'rtl' : 'ltr', `${locale} ${name}: dir`);
        assert.equal(view.overflow, false, `${locale} ${name}: fits 390 px`);
        const ours = view.texts.filter((s) => !data.includes(s) && !/^(app|org|listing)_[0-9A-Za-z]+$/.test(s));
        assert.ok(ours.length > 0, `${locale} ${name}: has our words`);
        for (const s of ours) {
          assert.ok(same.has(s) || !english[name]!.texts.includes(s), `${locale} ${name}: "${s}" is the English text`);
          const fragment = ENGLISH_FRAGMENTS.find((f) => s.includes(f));
          assert.equal(fragment, undefined, `${locale} ${name}: "${s}" contains English "${fragment}"`);
        }
      }
    }
  });

  it('takes the element’s lang over the page’s, the page’s over the browser’s, and the browser’s when neither is known', async () => {
    const page = await context.newPage();
    await page.goto(`${pages.origin}/listing?page-lang=fr&element-lang=de`);
    await page.getByRole('button', { name: button('de') }).waitFor();
    await page.locator('profile-apply').evaluate((el) => el.setAttribute('lang', 'es-MX'));
    await page.getByRole('button', { name: button('es') }).waitFor();
    assert.equal(await page.locator('profile-apply .r').getAttribute('lang'), 'es-MX', 'the region is kept for formats');
    await page.close();

    // A catalog that cannot be fetched: the candidate reads English (and lang says so), not keys or nothing.
    const offline = await context.newPage();
    await offline.route('**/widgets/locales/**', (route) => route.abort());
    await offline.goto(`${pages.origin}/listing?page-lang=de`);
    await offline.getByRole('button', { name: button('en') }).waitFor();
    assert.equal(await offline.locator('profile-apply .r').getAttribute('lang'), 'en');
    await offline.close();

    const brazilian = await browser.newContext({ locale: 'pt-BR' });
    try {
      const unknown = await brazilian.newPage();
      await unknown.goto(`${pages.origin}/listing`); // no lang on the page
      await unknown.getByRole('button', { name: button('pt') }).waitFor();
      const japanese = await brazilian.newPage();
      await japanese.goto(`${pages.origin}/listing?page-lang=ja`); // a language without a catalog
      await japanese.getByRole('button', { name: button('pt') }).waitFor();
    } finally {
      await brazilian.close();
    }
  });
});
