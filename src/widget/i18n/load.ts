/**
 * The candidate's language and its words. English is inline; every other catalog is a JSON file the
 * build writes to dist/widgets/locales/<locale>.<hash>.json and the plugin serves under
 * `{api base}/widgets/locales/` (immutable, CORS open), so the bundle stays small and a
 * page needs no CSP beyond `connect-src` for the API. One fetch per locale per page,
 * shared by every element; a failed fetch or a malformed file falls back to English.
 */
import { isCatalog, negotiate, Translator, type Catalog, type Locale, type MessageKey, type Negotiated } from './catalog';
import { en } from './en';

/** Stamped by scripts/build-widget.js: each fetched locale's file name. */
declare const PROFILE_APPLY_LOCALES: Record<string, string> | undefined;

const built = (): Record<string, string> => (typeof PROFILE_APPLY_LOCALES === 'object' && PROFILE_APPLY_LOCALES) || {};
const cache = new Map<string, Promise<Catalog>>();
const KEYS = Object.keys(en) as MessageKey[];

export function loadCatalog(base: string, locale: Locale): Promise<Catalog> {
  const file = built()[locale];
  if (locale === 'en' || !file) return Promise.resolve(en);
  const url = `${base}/widgets/locales/${file}`;
  let pending = cache.get(url);
  if (!pending) {
    pending = fetch(url, { mode: 'cors', credentials: 'omit' })
      .then((response) => (response.ok ? response.json() : undefined))
      .then((data: unknown) => (isCatalog(data, KEYS) ? data : en))
      .catch(() => {
        cache.delete(url);
        return en as Catalog;
      });
    cache.set(url, pending);
  }
  return pending;
}

/** The candidate's language: the element's `lang`, else the page's (the nearest `lang` up the tree), else the browser's. */
export function candidateLocale(element: Element): Negotiated {
  return negotiate([
    element.closest('[lang]')?.getAttribute('lang'),
    document.documentElement.getAttribute('lang'),
    ...(navigator.languages ?? []),
    navigator.language,
  ]);
}

/** The words in a locale; English (and an `en` tag, so `lang` tells the truth) when its catalog cannot be fetched. */
export async function translatorFor(base: string | undefined, locale: Negotiated): Promise<Translator> {
  const catalog = base ? await loadCatalog(base, locale.locale) : en;
  return new Translator(catalog === en && locale.locale !== 'en' ? 'en' : locale.tag, catalog);
}
