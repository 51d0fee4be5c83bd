/**
 * The upload link email an employee reads, in the six message languages (the employee's
 * stored `language` picks them; anything else reads English). `{name}` placeholders are
 * filled by `fillUploadLink`; the requirement's label is the organization's own words and
 * is shown as written. The JSON field names stay literal: they are what the link accepts.
 */
import type { MessageLocale } from '../../messages/domain/message-language';

export interface UploadLinkStrings {
  subject: string;
  greeting: string;
  upload: string;
  send_file: string;
  credential: string;
  send_credential: string;
}

export const UPLOAD_LINK_STRINGS: Record<MessageLocale, UploadLinkStrings> = {
  en: {
    subject: 'Please upload your {label}',
    greeting: 'Dear {name},',
    upload: 'Please upload a scan or photo (PDF, PNG or JPEG) of your {label} for your records with us.',
    send_file: 'Send it with a POST of {"file_name", "content_base64"} to this link, valid until {until}:',
    credential: 'If you hold it as a verifiable credential (a VC-JWT or one with a Data Integrity proof, such as an Open Badge), present it instead',
    send_credential: 'with a POST of {"credential": {"format", "credential"}} to {credentials_url}',
  },
  es: {
    subject: 'Sube tu {label}, por favor',
    greeting: 'Hola, {name}:',
    upload: 'Sube un escaneo o una foto (PDF, PNG o JPEG) de tu {label} para tu expediente con nosotros.',
    send_file: 'Envíalo con un POST de {"file_name", "content_base64"} a este enlace, válido hasta el {until}:',
    credential: 'Si lo tienes como credencial verificable (un VC-JWT o una con prueba Data Integrity, como un Open Badge), preséntala en su lugar',
    send_credential: 'con un POST de {"credential": {"format", "credential"}} a {credentials_url}',
  },
  fr: {
    subject: 'Merci de téléverser votre {label}',
    greeting: 'Bonjour {name},',
    upload: 'Merci de téléverser un scan ou une photo (PDF, PNG ou JPEG) de votre {label} pour votre dossier chez nous.',
    send_file: 'Envoyez-le par un POST de {"file_name", "content_base64"} à ce lien, valable jusqu’au {until} :',
    credential:
      'Si vous le détenez comme attestation vérifiable (un VC-JWT ou une attestation avec preuve Data Integrity, comme un Open Badge), présentez-la plutôt',
    send_credential: 'par un POST de {"credential": {"format", "credential"}} à {credentials_url}',
  },
  de: {
    subject: 'Bitte laden Sie Ihren Nachweis hoch: {label}',
    greeting: 'Hallo {name},',
    upload: 'bitte laden Sie einen Scan oder ein Foto (PDF, PNG oder JPEG) Ihres Nachweises „{label}“ für Ihre Unterlagen bei uns hoch.',
    send_file: 'Senden Sie ihn per POST von {"file_name", "content_base64"} an diesen Link, gültig bis {until}:',
    credential:
      'Wenn Sie ihn als verifizierbaren Nachweis besitzen (ein VC-JWT oder einer mit Data-Integrity-Beweis, etwa ein Open Badge), legen Sie stattdessen diesen vor',
    send_credential: 'per POST von {"credential": {"format", "credential"}} an {credentials_url}',
  },
  pt: {
    subject: 'Envie seu {label}, por favor',
    greeting: 'Olá, {name},',
    upload: 'Envie uma digitalização ou foto (PDF, PNG ou JPEG) do seu {label} para o seu cadastro conosco.',
    send_file: 'Envie-o com um POST de {"file_name", "content_base64"} para este link, válido até {until}:',
    credential: 'Se você o tiver como credencial verificável (um VC-JWT ou uma com prova Data Integrity, como um Open Badge), apresente-a em vez disso',
    send_credential: 'com um POST de {"credential": {"format", "credential"}} para {credentials_url}',
  },
  ar: {
    subject: 'يرجى رفع {label}',
    greeting: 'عزيزي/عزيزتي {name}،',
    upload: 'يرجى رفع صورة ممسوحة أو صورة فوتوغرافية (PDF أو PNG أو JPEG) من {label} لسجلك لدينا.',
    send_file: 'أرسلها بطلب POST يحمل {"file_name", "content_base64"} إلى هذا الرابط، الصالح حتى {until}:',
    credential: 'إذا كانت لديك كشهادة قابلة للتحقق (VC-JWT أو شهادة بإثبات Data Integrity مثل Open Badge)، فقدّمها بدلاً من ذلك',
    send_credential: 'بطلب POST يحمل {"credential": {"format", "credential"}} إلى {credentials_url}',
  },
};

/** Only `{word}` placeholders are filled: the JSON braces in the strings are left as written. */
export function fillUploadLink(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => params[key] ?? whole);
}
