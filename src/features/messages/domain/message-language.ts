/**
 * Which language a message is written in: the recipient's BCP 47 tag (the host sends it
 * with the person) negotiated against the six languages the widget speaks. The tag itself
 * is kept for Content-Language and date formatting (`pt-BR` reads the `pt` strings with
 * Brazilian dates); anything unknown or malformed falls back to English.
 */
export const MESSAGE_LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'ar'] as const;
export type MessageLocale = (typeof MESSAGE_LOCALES)[number];

export interface MessageLanguage {
  /** Which strings. */
  locale: MessageLocale;
  /** The canonical tag (Content-Language, `lang`, Intl). */
  tag: string;
  direction: 'ltr' | 'rtl';
}

const isLocale = (value: string): value is MessageLocale => (MESSAGE_LOCALES as readonly string[]).includes(value);

export function messageLanguage(requested: string | undefined): MessageLanguage {
  let tag: string | undefined;
  try {
    tag = requested ? Intl.getCanonicalLocales(requested)[0] : undefined;
  } catch {
    tag = undefined;
  }
  const base = tag?.split('-')[0]?.toLowerCase();
  if (!tag || !base || !isLocale(base)) return { locale: 'en', tag: 'en', direction: 'ltr' };
  return { locale: base, tag, direction: base === 'ar' ? 'rtl' : 'ltr' };
}

/**
 * Formatters by (tag, zone, style): building an Intl.DateTimeFormat costs far more than
 * formatting with one, and every reminder formats a moment. Bounded: the keys are a few
 * languages times the time zones in use; a full cache is emptied, not grown.
 */
const formatters = new Map<string, Intl.DateTimeFormat | null>();
const MAX_FORMATTERS = 1_000;

function formatter(tag: string, options: Intl.DateTimeFormatOptions, key: string): Intl.DateTimeFormat | null {
  let cached = formatters.get(key);
  if (cached === undefined) {
    try {
      cached = new Intl.DateTimeFormat(tag, options);
    } catch {
      cached = null;
    }
    if (formatters.size >= MAX_FORMATTERS) formatters.clear();
    formatters.set(key, cached);
  }
  return cached;
}

/** A time zone Intl knows (IANA), else undefined: payloads are checked with this. */
export function isTimeZone(zone: string): boolean {
  return formatter('en', { timeZone: zone }, `en\u0000${zone}\u0000zone`) !== null;
}

/** A moment as the recipient reads it: their language, the event's time zone (UTC when none is given). */
export function formatMoment(at: Date, language: MessageLanguage, timeZone?: string, style: 'full' | 'time' | 'date' = 'full'): string {
  const zone = timeZone && isTimeZone(timeZone) ? timeZone : 'UTC';
  const options: Intl.DateTimeFormatOptions =
    style === 'time'
      ? { timeStyle: 'short', timeZone: zone }
      : style === 'date'
        ? { dateStyle: 'full', timeZone: zone }
        : { dateStyle: 'full', timeStyle: 'short', timeZone: zone };
  const format = formatter(language.tag, options, `${language.tag}\u0000${zone}\u0000${style}`)!;
  return `${format.format(at)}${style === 'date' ? '' : ` (${zone})`}`;
}
