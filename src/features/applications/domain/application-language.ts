/**
 * The candidate's language given with a profile application: the BCP 47 tag the widget
 * renders in (`es`, `pt-BR`, `ar`). Kept canonical (`PT-br` → `pt-BR`) and bounded (35
 * characters, the longest tag a message's Content-Language needs), so every message read
 * from it negotiates the same way (messages/domain/message-language.ts).
 */
export const MAX_LANGUAGE_TAG_LENGTH = 35;

/** The canonical form of a well-formed tag, else undefined. */
export function canonicalLanguageTag(value: string): string | undefined {
  if (value.length === 0 || value.length > MAX_LANGUAGE_TAG_LENGTH || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(value)) return undefined;
  try {
    return Intl.getCanonicalLocales(value)[0];
  } catch {
    return undefined;
  }
}
