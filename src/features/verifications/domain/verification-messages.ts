/**
 * The code's message in the recipient's language: the widget's six languages, English
 * otherwise. Short on purpose: an SMS in GSM-7 stays one segment (Arabic goes as UCS-2).
 */
const TEMPLATES: Readonly<Record<string, { subject: string; text: (code: string, minutes: number) => string }>> = {
  en: { subject: 'Your verification code', text: (c, m) => `Your verification code is ${c}. It expires in ${m} minutes.` },
  de: { subject: 'Ihr Bestätigungscode', text: (c, m) => `Ihr Bestätigungscode lautet ${c}. Er läuft in ${m} Minuten ab.` },
  fr: { subject: 'Votre code de vérification', text: (c, m) => `Votre code de vérification est ${c}. Il expire dans ${m} minutes.` },
  es: { subject: 'Tu código de verificación', text: (c, m) => `Tu código de verificación es ${c}. Caduca en ${m} minutos.` },
  pt: { subject: 'O seu código de verificação', text: (c, m) => `O seu código de verificação é ${c}. Expira em ${m} minutos.` },
  ar: { subject: 'رمز التحقق الخاص بك', text: (c, m) => `رمز التحقق الخاص بك هو ${c}. تنتهي صلاحيته خلال ${m} دقائق.` },
};

export const VERIFICATION_LANGUAGES = Object.keys(TEMPLATES);

/** `de-AT` → de; unknown → en. */
export function verificationMessage(locale: string | undefined, code: string, minutes: number): { language: string; subject: string; text: string } {
  const language = locale && TEMPLATES[locale.toLowerCase().split('-')[0]!] ? locale.toLowerCase().split('-')[0]! : 'en';
  const template = TEMPLATES[language]!;
  return { language, subject: template.subject, text: template.text(code, minutes) };
}
