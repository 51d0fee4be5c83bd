/** The widget's catalogs and translator (src/widget/i18n): complete, consistent, negotiated, formatted for the locale. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { directionOf, LOCALES, negotiate, Translator, type Catalog, type Entry, type MessageKey } from '../../src/widget/i18n/catalog';
import ar from '../../src/widget/i18n/ar';
import de from '../../src/widget/i18n/de';
import { en } from '../../src/widget/i18n/en';
import es from '../../src/widget/i18n/es';
import fr from '../../src/widget/i18n/fr';
import pt from '../../src/widget/i18n/pt';

const CATALOGS: Record<string, Catalog> = { en, es, fr, de, pt, ar };
const KEYS = Object.keys(en) as MessageKey[];
const forms = (entry: Entry): string[] => (typeof entry === 'string' ? [entry] : Object.values(entry));
const placeholders = (entry: Entry): string[] => [...new Set(forms(entry).flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)))].sort();
/** Words that are the same in English and that language. */
const SAME_AS_ENGLISH: Record<string, string[]> = { es: ['no'] };

describe('widget i18n', () => {
  it('has a catalog for every locale it names, with exactly the English keys', () => {
    assert.deepEqual(Object.keys(CATALOGS).sort(), [...LOCALES].sort());
    for (const [locale, catalog] of Object.entries(CATALOGS)) assert.deepEqual(Object.keys(catalog).sort(), [...KEYS].sort(), locale);
  });

  it('keeps every placeholder of the English message, and the plural forms the language needs', () => {
    for (const [locale, catalog] of Object.entries(CATALOGS)) {
      // The categories counts of up to a thousand fall in (Spanish and French "many" is for millions: "other" serves).
      const rules = new Intl.PluralRules(locale);
      const categories = new Set(Array.from({ length: 1001 }, (_, n) => rules.select(n)));
      for (const key of KEYS) {
        const entry = catalog[key];
        const english = en[key] as Entry;
        // A plural form may spell the number out ("one skill"), so {count} may be absent from it.
        const expected = placeholders(english).filter((p) => !(typeof english !== 'string' && p === 'count'));
        const actual = placeholders(entry).filter((p) => !(typeof entry !== 'string' && p === 'count'));
        assert.deepEqual(actual, expected, `${locale}.${key}`);
        assert.equal(typeof entry, typeof english, `${locale}.${key} is a plural exactly when English is`);
        if (typeof entry !== 'string') for (const category of categories) assert.ok(entry[category] !== undefined, `${locale}.${key} lacks "${category}"`);
      }
    }
  });

  it('translates every message (no English left in another locale)', () => {
    for (const [locale, catalog] of Object.entries(CATALOGS)) {
      if (locale === 'en') continue;
      const same = KEYS.filter((key) => JSON.stringify(catalog[key]) === JSON.stringify(en[key]));
      assert.deepEqual(same, SAME_AS_ENGLISH[locale] ?? [], locale);
    }
  });

  it('negotiates the element’s lang, then the page’s, then the browser’s, keeping the region for formats', () => {
    assert.deepEqual(negotiate(['fr-CA', 'de', 'es']), { locale: 'fr', tag: 'fr-CA' });
    assert.deepEqual(negotiate([null, 'pt-br', 'en']), { locale: 'pt', tag: 'pt-BR' });
    assert.deepEqual(negotiate(['ja', 'zh-Hant', 'de-AT']), { locale: 'de', tag: 'de-AT' }, 'unsupported languages are skipped');
    assert.deepEqual(negotiate(['', 'not a tag!', 'ES']), { locale: 'es', tag: 'es' });
    assert.deepEqual(negotiate(['ja', undefined]), { locale: 'en', tag: 'en' });
    assert.deepEqual(negotiate([]), { locale: 'en', tag: 'en' });
    assert.equal(directionOf('ar-EG'), 'rtl');
    assert.equal(directionOf('he'), 'rtl');
    assert.equal(directionOf('pt-BR'), 'ltr');
  });

  it('counts with the language’s plural rules and formats numbers, dates and lists for the locale', () => {
    const english = new Translator('en', en);
    assert.equal(english.t('skills', { count: 1 }), '1 verified skill');
    assert.equal(english.t('skills', { count: 1200 }), '1,200 verified skills');
    assert.equal(english.t('check_answers', { count: 1 }), 'Please check the highlighted answer.');
    assert.equal(english.t('check_answers', { count: 3 }), 'Please check the 3 highlighted answers.');
    assert.equal(english.list([english.t('skills', { count: 3 }), english.t('work_history')]), '3 verified skills and your work history');
    assert.equal(
      english.t('already_on', { date: new Date('2026-11-23T12:00:00Z') }),
      'You applied to this listing on November 23, 2026. There is no need to apply again.',
    );

    const arabic = new Translator('ar', ar);
    assert.equal(arabic.dir, 'rtl');
    assert.equal(arabic.t('skills', { count: 2 }), 'مهارتان موثّقتان', 'Arabic has a dual');
    assert.notEqual(arabic.t('skills', { count: 3 }), arabic.t('skills', { count: 11 }), 'and few/many');
    assert.equal(
      arabic.t('applying_as', { name: 'Ada (Lovelace)' }),
      'تتقدّم باسم \u2068Ada (Lovelace)\u2069',
      'names isolated (FSI … PDI) in right-to-left text',
    );
    assert.equal(english.t('applying_as', { name: 'Ada' }), 'Applying as Ada');

    const german = new Translator('de-DE', de);
    assert.equal(
      german.t('already_on', { date: new Date('2026-11-23T12:00:00Z') }),
      'Sie haben sich am 23. November 2026 auf diese Stelle beworben. Eine erneute Bewerbung ist nicht nötig.',
    );
    assert.equal(german.list(['A', 'B', 'C']), 'A, B und C');
    assert.equal(new Translator('fr', fr).t('skills', { count: 1 }), '1 compétence vérifiée');
    assert.equal(new Translator('pt-BR', pt).t('credentials', { count: 2 }), '2 credenciais');
    assert.equal(new Translator('es', es).t('reference', { id: 'app_1' }), 'Referencia: app_1');
    assert.deepEqual(new Translator('es', es).parts('reference', {}, ['id']), ['Referencia: ', { slot: 'id' }]);
  });

  it('fills every placeholder of every message in every locale, for any count (property)', () => {
    const params = {
      organization: 'Acme',
      name: 'Ada',
      title: 'Engineer',
      items: 'x',
      id: 'app_1',
      date: new Date(0),
      value: 'v',
      prefix: 'org',
      themes: 'light',
      max: 5000,
    };
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(CATALOGS)), fc.nat({ max: 1_000_000 }), (locale, count) => {
        const translator = new Translator(locale, CATALOGS[locale]!);
        for (const key of KEYS) {
          const text = translator.t(key, { ...params, count });
          assert.doesNotMatch(text, /\{\w+\}/, `${locale}.${key}`);
          assert.ok(text.trim().length > 0, `${locale}.${key}`);
        }
      }),
      { numRuns: 60 },
    );
  });
});
