/**
 * Fetching a locale's catalog. English is inline; every other catalog is a JSON file the
 * build writes to dist/widgets/locales/<locale>.<hash>.json and the plugin serves under
 * `{api base}/widgets/locales/` (immutable, CORS open), so the bundle stays small and a
 * page needs no CSP beyond `connect-src` for the API. One fetch per locale per page,
 * shared by every element; a failed fetch or a malformed file falls back to English.
 */
import { isCatalog, type Catalog, type Locale, type MessageKey } from './catalog';
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
