/**
 * Catalog types, the translator and locale negotiation. DOM-free (Intl only), so the
 * main tsconfig's unit tests run it too.
 */
import type { en } from './en';

export type MessageKey = keyof typeof en;
/** Plural forms by Intl.PluralRules category; `other` is always there. */
export type PluralForms = { [K in Intl.LDMLPluralRule]?: string } & { other: string };
export type Entry = string | PluralForms;
export type Catalog = { [K in MessageKey]: Entry };
export type Params = Record<string, string | number | Date | undefined>;

/** Locales with a catalog; English is inline, the others are fetched. */
export const LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];
const RIGHT_TO_LEFT = new Set(['ar', 'he', 'fa', 'ur']);

export interface Negotiated {
  /** Which catalog. */
  locale: Locale;
  /** The BCP 47 tag Intl formats with (`pt-BR` keeps Brazilian dates with the `pt` catalog). */
  tag: string;
}

function canonical(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag.trim())[0];
  } catch {
    return undefined;
  }
}

/**
 * The first candidate tag (the element's `lang`, the page's, then the browser's) whose
 * language has a catalog; English when none has.
 */
export function negotiate(candidates: readonly (string | null | undefined)[]): Negotiated {
  for (const candidate of candidates) {
    const tag = candidate ? canonical(candidate) : undefined;
    if (!tag) continue;
    const language = tag.split('-')[0]!.toLowerCase();
    if ((LOCALES as readonly string[]).includes(language)) return { locale: language as Locale, tag };
  }
  return { locale: 'en', tag: 'en' };
}

export const directionOf = (locale: string): 'rtl' | 'ltr' => (RIGHT_TO_LEFT.has(locale.split('-')[0]!.toLowerCase()) ? 'rtl' : 'ltr');

/** Whether `value` looks like a catalog (every entry a string or plural forms with `other`). */
export function isCatalog(value: unknown, keys: readonly string[]): value is Catalog {
  if (!value || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return keys.every((key) => {
    const entry = record[key];
    return typeof entry === 'string' || (!!entry && typeof entry === 'object' && typeof (entry as PluralForms).other === 'string');
  });
}

export class Translator {
  readonly dir: 'rtl' | 'ltr';
  // Private (#) fields: the minifier shortens their names, public ones it must keep.
  readonly #catalog: Catalog;
  readonly #plurals: Intl.PluralRules;
  readonly #numbers: Intl.NumberFormat;
  readonly #dates: Intl.DateTimeFormat;
  readonly #lists: Intl.ListFormat;

  constructor(
    readonly tag: string,
    catalog: Catalog,
  ) {
    this.#catalog = catalog;
    this.dir = directionOf(tag);
    this.#plurals = new Intl.PluralRules(tag);
    this.#numbers = new Intl.NumberFormat(tag);
    this.#dates = new Intl.DateTimeFormat(tag, { dateStyle: 'long' });
    this.#lists = new Intl.ListFormat(tag, { style: 'long', type: 'conjunction' });
  }

  /** The message with its placeholders filled: numbers and dates formatted for the locale. */
  t(key: MessageKey, params: Params = {}): string {
    return this.parts(key, params).join('');
  }

  /**
   * The message split around its placeholders: strings, and `{ slot }` where `slots`
   * names a placeholder the caller renders itself (a `<code>`, say).
   */
  parts(key: MessageKey, params: Params = {}, slots: readonly string[] = []): (string | { slot: string })[] {
    const entry = this.#catalog[key];
    const template = typeof entry === 'string' ? entry : (entry[this.#plurals.select(Number(params.count ?? 0))] ?? entry.other);
    return template
      .split(/(\{\w+\})/)
      .filter(Boolean)
      .map((piece) => {
        const name = /^\{(\w+)\}$/.exec(piece)?.[1];
        if (!name) return piece;
        if (slots.includes(name)) return { slot: name };
        const value = params[name];
        if (value === undefined) return piece;
        if (typeof value === 'number') return this.#numbers.format(value);
        if (value instanceof Date) return this.#dates.format(value);
        // In a right-to-left message, a name or title in another script keeps its own direction.
        return this.dir === 'rtl' ? `\u2068${value}\u2069` : value;
      });
  }

  list(items: readonly string[]): string {
    return this.#lists.format(items);
  }
}
