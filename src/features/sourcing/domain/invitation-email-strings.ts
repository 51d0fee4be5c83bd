/**
 * The sourcing invitation's words in the six message languages. `{organization}` and
 * `{title}` are the organization's own words, shown as written; `{until}` is the link's
 * last day written for the language.
 */
import type { MessageLocale } from '../../messages/domain/message-language';

export interface InvitationEmailStrings {
  subject: string;
  invites: string;
  apply: string;
  why: string;
  withdraw: string;
}

export const INVITATION_EMAIL_STRINGS: Record<MessageLocale, InvitationEmailStrings> = {
  en: {
    subject: '{organization} invites you to apply: {title}',
    invites: '{organization} invites you to apply for "{title}".',
    apply: 'Apply here (the link is for you only and works once, until {until}):',
    why: 'You receive this because, when you last applied to {organization}, you agreed to be contacted about other jobs.',
    withdraw: 'To withdraw that consent and receive no more invitations: {url}',
  },
  es: {
    subject: '{organization} te invita a postularte: {title}',
    invites: '{organization} te invita a postularte a «{title}».',
    apply: 'Postúlate aquí (el enlace es solo para ti y sirve una vez, hasta el {until}):',
    why: 'Recibes este mensaje porque, la última vez que te postulaste a {organization}, aceptaste que te contactaran por otros empleos.',
    withdraw: 'Para retirar ese consentimiento y no recibir más invitaciones: {url}',
  },
  fr: {
    subject: '{organization} vous invite à postuler : {title}',
    invites: '{organization} vous invite à postuler au poste « {title} ».',
    apply: 'Postulez ici (le lien est personnel et ne sert qu’une fois, jusqu’au {until}) :',
    why: 'Vous recevez ce message car, lors de votre dernière candidature chez {organization}, vous avez accepté d’être contacté pour d’autres postes.',
    withdraw: 'Pour retirer ce consentement et ne plus recevoir d’invitations : {url}',
  },
  de: {
    subject: '{organization} lädt Sie zur Bewerbung ein: {title}',
    invites: '{organization} lädt Sie ein, sich auf „{title}“ zu bewerben.',
    apply: 'Hier bewerben (der Link gilt nur für Sie und einmal, bis {until}):',
    why: 'Sie erhalten diese Nachricht, weil Sie bei Ihrer letzten Bewerbung bei {organization} zugestimmt haben, zu anderen Stellen kontaktiert zu werden.',
    withdraw: 'Um diese Einwilligung zu widerrufen und keine Einladungen mehr zu erhalten: {url}',
  },
  pt: {
    subject: '{organization} convida você a se candidatar: {title}',
    invites: '{organization} convida você a se candidatar a "{title}".',
    apply: 'Candidate-se aqui (o link é só seu e funciona uma vez, até {until}):',
    why: 'Você recebe esta mensagem porque, ao se candidatar pela última vez na {organization}, aceitou ser contatado sobre outras vagas.',
    withdraw: 'Para retirar esse consentimento e não receber mais convites: {url}',
  },
  ar: {
    subject: 'تدعوك {organization} إلى التقدّم: {title}',
    invites: 'تدعوك {organization} إلى التقدّم لوظيفة "{title}".',
    apply: 'قدّم من هنا (الرابط لك وحدك ويعمل مرة واحدة، حتى {until}):',
    why: 'تصلك هذه الرسالة لأنك وافقت، عند تقدّمك الأخير إلى {organization}، على التواصل معك بشأن وظائف أخرى.',
    withdraw: 'لسحب هذه الموافقة وعدم تلقي دعوات أخرى: {url}',
  },
};

export function fillInvitation(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => params[key] ?? whole);
}
