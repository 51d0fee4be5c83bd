/**
 * The words of a sourcing invitation's opt-out page in the six message languages, the
 * language the candidate applied in (kept with their consent). `{organization}` is the
 * organization's own name as written; `{email}` the masked address the consent gave.
 */
import type { MessageLocale } from '../../messages/domain/message-language';

export interface UnsubscribePageStrings {
  title: string;
  question: string;
  button: string;
  done: string;
  /** Stands for `{email}` once the address has been erased. */
  your_address: string;
}

export const UNSUBSCRIBE_PAGE_STRINGS: Record<MessageLocale, UnsubscribePageStrings> = {
  en: {
    title: 'Stop invitations to apply',
    question: 'Withdraw your consent to be contacted by {organization} about other jobs, and receive no more invitations at {email}?',
    button: 'Withdraw my consent',
    done: 'Done: {organization} will not invite you to apply for its jobs again.',
    your_address: 'your address',
  },
  es: {
    title: 'Dejar de recibir invitaciones para postularte',
    question: '¿Retirar tu consentimiento para que {organization} te contacte por otros empleos y dejar de recibir invitaciones en {email}?',
    button: 'Retirar mi consentimiento',
    done: 'Listo: {organization} no volverá a invitarte a postularte a sus empleos.',
    your_address: 'tu dirección',
  },
  fr: {
    title: 'Ne plus recevoir d’invitations à postuler',
    question: 'Retirer votre consentement à être contacté par {organization} pour d’autres postes, et ne plus recevoir d’invitations à {email} ?',
    button: 'Retirer mon consentement',
    done: 'C’est fait : {organization} ne vous invitera plus à postuler à ses offres.',
    your_address: 'votre adresse',
  },
  de: {
    title: 'Keine Einladungen zur Bewerbung mehr',
    question: 'Ihre Einwilligung widerrufen, von {organization} zu anderen Stellen kontaktiert zu werden, und keine Einladungen mehr an {email} erhalten?',
    button: 'Einwilligung widerrufen',
    done: 'Erledigt: {organization} wird Sie nicht mehr zur Bewerbung auf seine Stellen einladen.',
    your_address: 'Ihre Adresse',
  },
  pt: {
    title: 'Deixar de receber convites para se candidatar',
    question: 'Retirar o seu consentimento para ser contactado por {organization} sobre outras vagas e deixar de receber convites em {email}?',
    button: 'Retirar o meu consentimento',
    done: 'Feito: {organization} não voltará a convidá-lo a candidatar-se às suas vagas.',
    your_address: 'o seu endereço',
  },
  ar: {
    title: 'إيقاف دعوات التقديم',
    question: 'هل تريد سحب موافقتك على أن تتواصل معك {organization} بشأن وظائف أخرى، والتوقف عن تلقي الدعوات على {email}؟',
    button: 'سحب موافقتي',
    done: 'تم: لن تدعوك {organization} بعد الآن للتقديم على وظائفها.',
    your_address: 'عنوانك',
  },
};
