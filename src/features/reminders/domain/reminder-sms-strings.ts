/**
 * The interview reminder SMS in the six message languages. `{when}` is the interview's start
 * written for the language and the event's time zone (formatMoment); `{where}` is the
 * location sentence, left out when the host sent none. Short on purpose: in English (GSM-7)
 * the text fits one 160-septet segment for ordinary names and titles; Arabic travels as UCS-2.
 */
import type { MessageLocale } from '../../messages/domain/message-language';

export interface ReminderSmsStrings {
  body: string;
  where: string;
}

export const REMINDER_SMS_STRINGS: Record<MessageLocale, ReminderSmsStrings> = {
  en: { body: 'Hello {name}, a reminder: "{title}" starts {when}.', where: 'Where: {location}.' },
  es: { body: 'Hola, {name}: te recordamos que «{title}» empieza el {when}.', where: 'Lugar: {location}.' },
  fr: { body: 'Bonjour {name}, rappel : « {title} » commence le {when}.', where: 'Lieu : {location}.' },
  de: { body: 'Hallo {name}, zur Erinnerung: „{title}“ beginnt am {when}.', where: 'Ort: {location}.' },
  pt: { body: 'Olá, {name}: lembrete de que "{title}" começa em {when}.', where: 'Local: {location}.' },
  ar: { body: 'مرحبًا {name}، تذكير: يبدأ "{title}" في {when}.', where: 'المكان: {location}.' },
};

export function fillReminderSms(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => params[key] ?? whole);
}
