/** The words of the pages behind message links (unsubscribe, call sheet confirmation), in the six languages. */
import type { MessageLocale } from './message-language';

export interface PageStrings {
  unsubscribe_title: string;
  unsubscribe_question: string;
  unsubscribe_button: string;
  unsubscribed: string;
  confirm_title: string;
  confirm_question: string;
  confirm_button: string;
  confirmed: string;
  link_invalid_title: string;
  link_invalid: string;
}

export const PAGE_STRINGS: Record<MessageLocale, PageStrings> = {
  en: {
    unsubscribe_title: 'Unsubscribe from status updates',
    unsubscribe_question: 'Stop emails about the progress of your application at {organization} to {email}?',
    unsubscribe_button: 'Unsubscribe',
    unsubscribed: 'You are unsubscribed: {email} gets no more status updates from {organization}.',
    confirm_title: 'Confirm your call time',
    confirm_question: '{production}, {date}: your call time is {call_time}.',
    confirm_button: 'I confirm',
    confirmed: 'Thank you, your call time is confirmed.',
    link_invalid_title: 'This link does not work',
    link_invalid: 'This link is not valid: it may have been changed or cut short. Open it again from the email you received.',
  },
  es: {
    unsubscribe_title: 'Darse de baja de las actualizaciones',
    unsubscribe_question: '¿Dejar de enviar a {email} correos sobre el avance de tu candidatura en {organization}?',
    unsubscribe_button: 'Darme de baja',
    unsubscribed: 'Te has dado de baja: {email} no recibirá más actualizaciones de {organization}.',
    confirm_title: 'Confirma tu hora de llamada',
    confirm_question: '{production}, {date}: tu hora de llamada es {call_time}.',
    confirm_button: 'Confirmo',
    confirmed: 'Gracias, tu hora de llamada está confirmada.',
    link_invalid_title: 'Este enlace no funciona',
    link_invalid: 'Este enlace no es válido: puede haber sido modificado o cortado. Ábrelo de nuevo desde el correo que recibiste.',
  },
  fr: {
    unsubscribe_title: 'Se désabonner des mises à jour',
    unsubscribe_question: 'Ne plus envoyer à {email} les nouvelles de votre candidature chez {organization} ?',
    unsubscribe_button: 'Me désabonner',
    unsubscribed: 'Vous êtes désabonné : {email} ne recevra plus de mises à jour de {organization}.',
    confirm_title: 'Confirmez votre heure de convocation',
    confirm_question: '{production}, {date} : votre heure de convocation est {call_time}.',
    confirm_button: 'Je confirme',
    confirmed: 'Merci, votre heure de convocation est confirmée.',
    link_invalid_title: 'Ce lien ne fonctionne pas',
    link_invalid: 'Ce lien n’est pas valide : il a peut-être été modifié ou tronqué. Ouvrez-le à nouveau depuis l’e-mail reçu.',
  },
  de: {
    unsubscribe_title: 'Statusmeldungen abbestellen',
    unsubscribe_question: 'Keine E-Mails mehr über den Stand Ihrer Bewerbung bei {organization} an {email}?',
    unsubscribe_button: 'Abbestellen',
    unsubscribed: 'Abbestellt: {email} erhält keine Statusmeldungen von {organization} mehr.',
    confirm_title: 'Drehzeit bestätigen',
    confirm_question: '{production}, {date}: Ihre Drehzeit ist {call_time}.',
    confirm_button: 'Ich bestätige',
    confirmed: 'Danke, Ihre Drehzeit ist bestätigt.',
    link_invalid_title: 'Dieser Link funktioniert nicht',
    link_invalid: 'Dieser Link ist ungültig: Er wurde vielleicht verändert oder abgeschnitten. Öffnen Sie ihn erneut aus der erhaltenen E-Mail.',
  },
  pt: {
    unsubscribe_title: 'Cancelar as atualizações de estado',
    unsubscribe_question: 'Deixar de enviar para {email} mensagens sobre a sua candidatura a {organization}?',
    unsubscribe_button: 'Cancelar subscrição',
    unsubscribed: 'Subscrição cancelada: {email} não recebe mais atualizações de {organization}.',
    confirm_title: 'Confirme o seu horário de chamada',
    confirm_question: '{production}, {date}: o seu horário de chamada é {call_time}.',
    confirm_button: 'Confirmo',
    confirmed: 'Obrigado, o seu horário de chamada está confirmado.',
    link_invalid_title: 'Esta ligação não funciona',
    link_invalid: 'Esta ligação não é válida: pode ter sido alterada ou cortada. Abra-a de novo a partir do email que recebeu.',
  },
  ar: {
    unsubscribe_title: 'إلغاء الاشتراك في تحديثات الحالة',
    unsubscribe_question: 'هل تريد إيقاف الرسائل حول تقدّم طلبك لدى {organization} إلى {email}؟',
    unsubscribe_button: 'إلغاء الاشتراك',
    unsubscribed: 'تم إلغاء اشتراكك: لن يتلقى {email} تحديثات أخرى من {organization}.',
    confirm_title: 'تأكيد موعد حضورك',
    confirm_question: '{production}، {date}: موعد حضورك هو {call_time}.',
    confirm_button: 'أؤكد',
    confirmed: 'شكرًا، تم تأكيد موعد حضورك.',
    link_invalid_title: 'هذا الرابط لا يعمل',
    link_invalid: 'هذا الرابط غير صالح: ربما تم تغييره أو اقتطاعه. افتحه مرة أخرى من الرسالة التي وصلتك.',
  },
};

/** Fills `{param}` with already-escaped values. */
export const fillPage = (text: string, params: Record<string, string>) => text.replace(/\{([a-z_]+)\}/g, (_, key: string) => params[key] ?? '');
