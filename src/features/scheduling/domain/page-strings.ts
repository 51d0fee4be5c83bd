/** The words of the candidate's scheduling page, in the six languages messages are written in. */
import type { MessageLocale } from '../../messages/domain/message-language';

export interface SchedulingPageStrings {
  title: string;
  intro: string;
  choose: string;
  book: string;
  none: string;
  booked: string;
  move_heading: string;
  move: string;
  cancel: string;
  cancelled: string;
  /** The host withdrew the request (POST /v1/scheduling/requests/{id}/cancel). */
  withdrawn: string;
  slot_taken: string;
  slot_unavailable: string;
  /** The same link booked another time at the same moment (two tabs, two clicks): that one stands. */
  booking_in_progress: string;
  pick_one: string;
}

export const SCHEDULING_PAGE_STRINGS: Record<MessageLocale, SchedulingPageStrings> = {
  en: {
    title: 'Choose a time for your interview',
    intro: '{title} with {organization}, {duration} minutes. Times are shown in {timezone}.',
    choose: 'Available times',
    book: 'Book this time',
    none: 'No time in this window is free any more. Please contact {organization}.',
    booked: 'Your interview is booked: {when}. The invitation is in your email.',
    move_heading: 'Need another time?',
    move: 'Move my interview to this time',
    cancel: 'Cancel my interview',
    cancelled: 'Your interview is cancelled.',
    withdrawn: '{organization} has withdrawn this interview request. You do not need to do anything.',
    slot_taken: 'Someone else just booked this time. Please choose another one.',
    slot_unavailable: 'This time is no longer free. Please choose another one.',
    booking_in_progress: 'Another time was being booked through this link at the same moment; that booking stands. Reload this page to see it.',
    pick_one: 'Please choose a time.',
  },
  es: {
    title: 'Elige la hora de tu entrevista',
    intro: '{title} con {organization}, {duration} minutos. Las horas se muestran en {timezone}.',
    choose: 'Horas disponibles',
    book: 'Reservar esta hora',
    none: 'Ya no queda ninguna hora libre en este periodo. Ponte en contacto con {organization}.',
    booked: 'Tu entrevista está reservada: {when}. La invitación está en tu correo.',
    move_heading: '¿Necesitas otra hora?',
    move: 'Cambiar mi entrevista a esta hora',
    cancel: 'Cancelar mi entrevista',
    cancelled: 'Tu entrevista está cancelada.',
    withdrawn: '{organization} ha retirado esta solicitud de entrevista. No tienes que hacer nada.',
    slot_taken: 'Otra persona acaba de reservar esta hora. Elige otra, por favor.',
    slot_unavailable: 'Esta hora ya no está libre. Elige otra, por favor.',
    booking_in_progress:
      'Se estaba reservando otra hora con este enlace en el mismo momento; esa reserva es la válida. Vuelve a cargar esta página para verla.',
    pick_one: 'Elige una hora, por favor.',
  },
  fr: {
    title: 'Choisissez l’heure de votre entretien',
    intro: '{title} avec {organization}, {duration} minutes. Les heures sont indiquées en {timezone}.',
    choose: 'Heures disponibles',
    book: 'Réserver cette heure',
    none: 'Plus aucune heure n’est libre sur cette période. Veuillez contacter {organization}.',
    booked: 'Votre entretien est réservé : {when}. L’invitation est dans vos e-mails.',
    move_heading: 'Besoin d’une autre heure ?',
    move: 'Déplacer mon entretien à cette heure',
    cancel: 'Annuler mon entretien',
    cancelled: 'Votre entretien est annulé.',
    withdrawn: '{organization} a retiré cette demande d’entretien. Vous n’avez rien à faire.',
    slot_taken: 'Quelqu’un vient de réserver cette heure. Veuillez en choisir une autre.',
    slot_unavailable: 'Cette heure n’est plus libre. Veuillez en choisir une autre.',
    booking_in_progress: 'Une autre heure était réservée avec ce lien au même moment ; c’est cette réservation qui compte. Rechargez cette page pour la voir.',
    pick_one: 'Veuillez choisir une heure.',
  },
  de: {
    title: 'Wählen Sie einen Termin für Ihr Gespräch',
    intro: '{title} mit {organization}, {duration} Minuten. Die Zeiten sind in {timezone} angegeben.',
    choose: 'Freie Termine',
    book: 'Diesen Termin buchen',
    none: 'In diesem Zeitraum ist kein Termin mehr frei. Bitte wenden Sie sich an {organization}.',
    booked: 'Ihr Gespräch ist gebucht: {when}. Die Einladung ist in Ihrem Postfach.',
    move_heading: 'Brauchen Sie einen anderen Termin?',
    move: 'Mein Gespräch auf diesen Termin verschieben',
    cancel: 'Mein Gespräch absagen',
    cancelled: 'Ihr Gespräch ist abgesagt.',
    withdrawn: '{organization} hat diese Gesprächsanfrage zurückgezogen. Sie müssen nichts weiter tun.',
    slot_taken: 'Dieser Termin wurde gerade von jemand anderem gebucht. Bitte wählen Sie einen anderen.',
    slot_unavailable: 'Dieser Termin ist nicht mehr frei. Bitte wählen Sie einen anderen.',
    booking_in_progress: 'Über diesen Link wurde im selben Moment ein anderer Termin gebucht; diese Buchung gilt. Laden Sie die Seite neu, um sie zu sehen.',
    pick_one: 'Bitte wählen Sie einen Termin.',
  },
  pt: {
    title: 'Escolha o horário da sua entrevista',
    intro: '{title} com {organization}, {duration} minutos. Os horários são mostrados em {timezone}.',
    choose: 'Horários disponíveis',
    book: 'Reservar este horário',
    none: 'Já não há horários livres neste período. Contacte {organization}.',
    booked: 'A sua entrevista está marcada: {when}. O convite está no seu email.',
    move_heading: 'Precisa de outro horário?',
    move: 'Mudar a minha entrevista para este horário',
    cancel: 'Cancelar a minha entrevista',
    cancelled: 'A sua entrevista foi cancelada.',
    withdrawn: '{organization} retirou este pedido de entrevista. Não precisa de fazer nada.',
    slot_taken: 'Outra pessoa acabou de reservar este horário. Escolha outro, por favor.',
    slot_unavailable: 'Este horário já não está livre. Escolha outro, por favor.',
    booking_in_progress: 'Outro horário estava a ser reservado com este link no mesmo momento; essa reserva é a que vale. Recarregue esta página para a ver.',
    pick_one: 'Escolha um horário, por favor.',
  },
  ar: {
    title: 'اختر موعد مقابلتك',
    intro: '{title} مع {organization}، لمدة {duration} دقيقة. تظهر الأوقات بتوقيت {timezone}.',
    choose: 'المواعيد المتاحة',
    book: 'احجز هذا الموعد',
    none: 'لم يعد هناك موعد متاح في هذه الفترة. يُرجى التواصل مع {organization}.',
    booked: 'تم حجز مقابلتك: {when}. الدعوة في بريدك الإلكتروني.',
    move_heading: 'هل تحتاج إلى موعد آخر؟',
    move: 'انقل مقابلتي إلى هذا الموعد',
    cancel: 'ألغِ مقابلتي',
    cancelled: 'تم إلغاء مقابلتك.',
    withdrawn: 'سحبت {organization} طلب المقابلة هذا. لا يلزمك القيام بأي شيء.',
    slot_taken: 'حجز شخص آخر هذا الموعد للتو. يُرجى اختيار موعد آخر.',
    slot_unavailable: 'لم يعد هذا الموعد متاحًا. يُرجى اختيار موعد آخر.',
    booking_in_progress: 'كان يجري حجز موعد آخر عبر هذا الرابط في اللحظة نفسها، وهذا الحجز هو المعتمد. أعد تحميل هذه الصفحة لرؤيته.',
    pick_one: 'يُرجى اختيار موعد.',
  },
};
