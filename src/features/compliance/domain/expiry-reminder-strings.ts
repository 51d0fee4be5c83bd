/**
 * The credential expiry reminder in the six message languages. `{name}` placeholders are
 * filled by `fillReminder`; the credential type and requirement key are the organization's
 * own words, shown as written, and the date stays ISO (YYYY-MM-DD), which reads the same everywhere.
 */
import type { MessageLocale } from '../../messages/domain/message-language';

export interface ExpiryReminderStrings {
  subject: string;
  greeting: string;
  /** Fallback names when the host gave none. */
  colleague: string;
  candidate: string;
  expires_one: string;
  expires_other: string;
  renew_employee: string;
  renew_candidate: string;
}

export const EXPIRY_REMINDER_STRINGS: Record<MessageLocale, ExpiryReminderStrings> = {
  en: {
    subject: 'Your {type} expires on {date}',
    greeting: 'Dear {name},',
    colleague: 'colleague',
    candidate: 'candidate',
    expires_one: 'The {type} you presented for "{requirement}" expires on {date}, in {days} day.',
    expires_other: 'The {type} you presented for "{requirement}" expires on {date}, in {days} days.',
    renew_employee: 'Please renew it and send us the renewed document before then (ask us for an upload link), so you stay cleared for your role.',
    renew_candidate: 'Please renew it and present the renewed credential before then, so it keeps counting.',
  },
  es: {
    subject: 'Tu {type} vence el {date}',
    greeting: 'Hola, {name}:',
    colleague: 'colega',
    candidate: 'candidato',
    expires_one: 'El documento {type} que presentaste para «{requirement}» vence el {date}, dentro de {days} día.',
    expires_other: 'El documento {type} que presentaste para «{requirement}» vence el {date}, dentro de {days} días.',
    renew_employee: 'Renuévalo y envíanos el documento renovado antes de esa fecha (pídenos un enlace de subida), para seguir habilitado para tu puesto.',
    renew_candidate: 'Renuévalo y presenta la credencial renovada antes de esa fecha, para que siga contando.',
  },
  fr: {
    subject: 'Votre {type} expire le {date}',
    greeting: 'Bonjour {name},',
    colleague: 'collègue',
    candidate: 'candidat',
    expires_one: 'Le document {type} que vous avez présenté pour « {requirement} » expire le {date}, dans {days} jour.',
    expires_other: 'Le document {type} que vous avez présenté pour « {requirement} » expire le {date}, dans {days} jours.',
    renew_employee:
      'Merci de le renouveler et de nous envoyer le document renouvelé avant cette date (demandez-nous un lien de téléversement), pour rester habilité à votre poste.',
    renew_candidate: 'Merci de le renouveler et de présenter l’attestation renouvelée avant cette date, pour qu’elle continue de compter.',
  },
  de: {
    subject: 'Ihr Nachweis „{type}“ läuft am {date} ab',
    greeting: 'Hallo {name},',
    colleague: 'Kollegin, Kollege',
    candidate: 'Bewerberin, Bewerber',
    expires_one: 'der Nachweis „{type}“, den Sie für „{requirement}“ vorgelegt haben, läuft am {date} ab, in {days} Tag.',
    expires_other: 'der Nachweis „{type}“, den Sie für „{requirement}“ vorgelegt haben, läuft am {date} ab, in {days} Tagen.',
    renew_employee:
      'Bitte erneuern Sie ihn und senden Sie uns das erneuerte Dokument vorher (fragen Sie uns nach einem Upload-Link), damit Sie für Ihre Rolle freigegeben bleiben.',
    renew_candidate: 'Bitte erneuern Sie ihn und legen Sie den erneuerten Nachweis vorher vor, damit er weiter zählt.',
  },
  pt: {
    subject: 'Seu {type} vence em {date}',
    greeting: 'Olá, {name},',
    colleague: 'colega',
    candidate: 'candidato',
    expires_one: 'O documento {type} que você apresentou para "{requirement}" vence em {date}, daqui a {days} dia.',
    expires_other: 'O documento {type} que você apresentou para "{requirement}" vence em {date}, daqui a {days} dias.',
    renew_employee: 'Renove-o e envie-nos o documento renovado antes disso (peça-nos um link de envio), para continuar habilitado para a sua função.',
    renew_candidate: 'Renove-o e apresente a credencial renovada antes disso, para que continue valendo.',
  },
  ar: {
    subject: 'تنتهي صلاحية {type} في {date}',
    greeting: 'عزيزي/عزيزتي {name}،',
    colleague: 'الزميل/الزميلة',
    candidate: 'المرشح/المرشحة',
    expires_one: 'تنتهي صلاحية {type} الذي قدّمته لـ "{requirement}" في {date}، بعد {days} يوم.',
    expires_other: 'تنتهي صلاحية {type} الذي قدّمته لـ "{requirement}" في {date}، بعد {days} يوم.',
    renew_employee: 'يرجى تجديده وإرسال المستند المجدَّد إلينا قبل ذلك (اطلب منا رابط رفع)، لتبقى مؤهلاً لدورك.',
    renew_candidate: 'يرجى تجديده وتقديم الشهادة المجدَّدة قبل ذلك، لتبقى معتمدة.',
  },
};

export function fillReminder(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => params[key] ?? whole);
}
