/**
 * The words of every message kind in the six languages. A line naming a `{param}` the
 * message does not have is left out (no "Where: ." when there is no location). Links are
 * rendered as anchors in HTML and as "label: url" in text.
 */
import type { MessageLocale } from './message-language';

export type MessageKind = 'interview_reminder' | 'status_update' | 'call_sheet' | 'call_sheet_reminder' | 'scheduling_invitation';
export type LinkKind = 'unsubscribe' | 'confirm' | 'call_sheet' | 'schedule';

export interface KindTemplate {
  subject: string;
  /** A line, or alternatives of which the first whose parameters are all there is used. */
  lines: readonly (string | readonly string[])[];
}

type LocaleTemplates = Record<MessageKind, KindTemplate> & { links: Record<LinkKind, string>; footer_unsubscribe: string };

export const TEMPLATES: Record<MessageLocale, LocaleTemplates> = {
  en: {
    interview_reminder: { subject: 'Reminder: {title}', lines: ['Hello {name},', 'a reminder: "{title}" starts {when}.', 'Where: {location}'] },
    status_update: {
      subject: 'Your application: {stage}',
      lines: ['Hello {name},', ['your application for {job} has moved to: {stage}.', 'your application has moved to: {stage}.'], '{note}'],
    },
    call_sheet: {
      subject: 'Call sheet: {production}, {date}',
      lines: [
        'Hello {name},',
        'your call time for {production} is {call_time}.',
        'Location: {location}',
        'Your call sheet is attached. Please confirm that you received it.',
      ],
    },
    call_sheet_reminder: {
      subject: 'Please confirm: {production}, {date}',
      lines: ['Hello {name},', 'we have not had your confirmation yet: your call time for {production} is {call_time}.', 'Location: {location}'],
    },
    scheduling_invitation: {
      subject: 'Pick a time for your interview: {title}',
      lines: [
        'Hello {name},',
        '{organization} invites you to "{title}" ({duration} minutes).',
        'Choose a time that suits you; times are shown in {timezone}.',
        'The link works until {expires}.',
      ],
    },
    links: { unsubscribe: 'Unsubscribe from status updates', confirm: 'Confirm my call time', call_sheet: 'Your call sheet', schedule: 'Choose a time' },
    footer_unsubscribe: 'You receive this because you applied to {organization}.',
  },
  es: {
    interview_reminder: { subject: 'Recordatorio: {title}', lines: ['Hola {name}:', 'te recordamos que «{title}» empieza el {when}.', 'Lugar: {location}'] },
    status_update: {
      subject: 'Tu candidatura: {stage}',
      lines: ['Hola {name}:', ['tu candidatura para {job} ha pasado a: {stage}.', 'tu candidatura ha pasado a: {stage}.'], '{note}'],
    },
    call_sheet: {
      subject: 'Hoja de llamada: {production}, {date}',
      lines: [
        'Hola {name}:',
        'tu hora de llamada para {production} es {call_time}.',
        'Lugar: {location}',
        'Adjuntamos tu hoja de llamada. Confirma que la has recibido.',
      ],
    },
    call_sheet_reminder: {
      subject: 'Confirma, por favor: {production}, {date}',
      lines: ['Hola {name}:', 'aún no hemos recibido tu confirmación: tu hora de llamada para {production} es {call_time}.', 'Lugar: {location}'],
    },
    scheduling_invitation: {
      subject: 'Elige la hora de tu entrevista: {title}',
      lines: [
        'Hola {name}:',
        '{organization} te invita a «{title}» ({duration} minutos).',
        'Elige la hora que mejor te venga; las horas se muestran en {timezone}.',
        'El enlace funciona hasta el {expires}.',
      ],
    },
    links: {
      unsubscribe: 'Darme de baja de las actualizaciones',
      confirm: 'Confirmar mi hora de llamada',
      call_sheet: 'Tu hoja de llamada',
      schedule: 'Elegir una hora',
    },
    footer_unsubscribe: 'Recibes este mensaje porque enviaste una candidatura a {organization}.',
  },
  fr: {
    interview_reminder: { subject: 'Rappel : {title}', lines: ['Bonjour {name},', 'un rappel : « {title} » commence le {when}.', 'Lieu : {location}'] },
    status_update: {
      subject: 'Votre candidature : {stage}',
      lines: [
        'Bonjour {name},',
        ['votre candidature pour {job} est passée à l’étape : {stage}.', 'votre candidature est passée à l’étape : {stage}.'],
        '{note}',
      ],
    },
    call_sheet: {
      subject: 'Feuille de service : {production}, {date}',
      lines: [
        'Bonjour {name},',
        'votre heure de convocation pour {production} est {call_time}.',
        'Lieu : {location}',
        'Votre feuille de service est jointe. Merci de confirmer sa réception.',
      ],
    },
    call_sheet_reminder: {
      subject: 'Merci de confirmer : {production}, {date}',
      lines: [
        'Bonjour {name},',
        'nous n’avons pas encore votre confirmation : votre heure de convocation pour {production} est {call_time}.',
        'Lieu : {location}',
      ],
    },
    scheduling_invitation: {
      subject: 'Choisissez l’heure de votre entretien : {title}',
      lines: [
        'Bonjour {name},',
        '{organization} vous invite à « {title} » ({duration} minutes).',
        'Choisissez l’heure qui vous convient ; les heures sont indiquées en {timezone}.',
        'Le lien fonctionne jusqu’au {expires}.',
      ],
    },
    links: {
      unsubscribe: 'Ne plus recevoir les mises à jour',
      confirm: 'Confirmer mon heure de convocation',
      call_sheet: 'Votre feuille de service',
      schedule: 'Choisir une heure',
    },
    footer_unsubscribe: 'Vous recevez ce message parce que vous avez postulé chez {organization}.',
  },
  de: {
    interview_reminder: { subject: 'Erinnerung: {title}', lines: ['Hallo {name},', 'zur Erinnerung: „{title}“ beginnt am {when}.', 'Ort: {location}'] },
    status_update: {
      subject: 'Ihre Bewerbung: {stage}',
      lines: ['Hallo {name},', ['Ihre Bewerbung für {job} ist jetzt im Schritt: {stage}.', 'Ihre Bewerbung ist jetzt im Schritt: {stage}.'], '{note}'],
    },
    call_sheet: {
      subject: 'Dispo: {production}, {date}',
      lines: [
        'Hallo {name},',
        'Ihre Drehzeit für {production} ist {call_time}.',
        'Ort: {location}',
        'Ihre Dispo ist angehängt. Bitte bestätigen Sie den Empfang.',
      ],
    },
    call_sheet_reminder: {
      subject: 'Bitte bestätigen: {production}, {date}',
      lines: ['Hallo {name},', 'uns fehlt noch Ihre Bestätigung: Ihre Drehzeit für {production} ist {call_time}.', 'Ort: {location}'],
    },
    scheduling_invitation: {
      subject: 'Wählen Sie einen Termin für Ihr Gespräch: {title}',
      lines: [
        'Hallo {name},',
        '{organization} lädt Sie zu „{title}“ ein ({duration} Minuten).',
        'Wählen Sie einen passenden Termin; die Zeiten sind in {timezone} angegeben.',
        'Der Link gilt bis {expires}.',
      ],
    },
    links: { unsubscribe: 'Statusmeldungen abbestellen', confirm: 'Drehzeit bestätigen', call_sheet: 'Ihre Dispo', schedule: 'Termin wählen' },
    footer_unsubscribe: 'Sie erhalten diese Nachricht, weil Sie sich bei {organization} beworben haben.',
  },
  pt: {
    interview_reminder: { subject: 'Lembrete: {title}', lines: ['Olá {name},', 'um lembrete: "{title}" começa em {when}.', 'Local: {location}'] },
    status_update: {
      subject: 'A sua candidatura: {stage}',
      lines: ['Olá {name},', ['a sua candidatura para {job} passou para a etapa: {stage}.', 'a sua candidatura passou para a etapa: {stage}.'], '{note}'],
    },
    call_sheet: {
      subject: 'Ordem do dia: {production}, {date}',
      lines: [
        'Olá {name},',
        'o seu horário de chamada para {production} é {call_time}.',
        'Local: {location}',
        'A sua ordem do dia segue em anexo. Confirme que a recebeu.',
      ],
    },
    call_sheet_reminder: {
      subject: 'Confirme, por favor: {production}, {date}',
      lines: ['Olá {name},', 'ainda não recebemos a sua confirmação: o seu horário de chamada para {production} é {call_time}.', 'Local: {location}'],
    },
    scheduling_invitation: {
      subject: 'Escolha o horário da sua entrevista: {title}',
      lines: [
        'Olá {name},',
        '{organization} convida-o para «{title}» ({duration} minutos).',
        'Escolha o horário que lhe convém; os horários são mostrados em {timezone}.',
        'A ligação funciona até {expires}.',
      ],
    },
    links: {
      unsubscribe: 'Cancelar as atualizações de estado',
      confirm: 'Confirmar o meu horário',
      call_sheet: 'A sua ordem do dia',
      schedule: 'Escolher um horário',
    },
    footer_unsubscribe: 'Recebe esta mensagem porque se candidatou a {organization}.',
  },
  ar: {
    interview_reminder: { subject: 'تذكير: {title}', lines: ['مرحبًا {name}،', 'تذكير: «{title}» يبدأ في {when}.', 'المكان: {location}'] },
    status_update: {
      subject: 'طلبك: {stage}',
      lines: ['مرحبًا {name}،', ['انتقل طلبك لوظيفة {job} إلى مرحلة: {stage}.', 'انتقل طلبك إلى مرحلة: {stage}.'], '{note}'],
    },
    call_sheet: {
      subject: 'ورقة الاستدعاء: {production}، {date}',
      lines: ['مرحبًا {name}،', 'موعد حضورك لـ {production} هو {call_time}.', 'المكان: {location}', 'ورقة الاستدعاء مرفقة. يُرجى تأكيد استلامها.'],
    },
    call_sheet_reminder: {
      subject: 'يُرجى التأكيد: {production}، {date}',
      lines: ['مرحبًا {name}،', 'لم يصلنا تأكيدك بعد: موعد حضورك لـ {production} هو {call_time}.', 'المكان: {location}'],
    },
    scheduling_invitation: {
      subject: 'اختر موعد مقابلتك: {title}',
      lines: [
        'مرحبًا {name}،',
        'تدعوك {organization} إلى «{title}» ({duration} دقيقة).',
        'اختر الموعد الذي يناسبك؛ تظهر الأوقات بتوقيت {timezone}.',
        'يعمل الرابط حتى {expires}.',
      ],
    },
    links: { unsubscribe: 'إلغاء الاشتراك في تحديثات الحالة', confirm: 'تأكيد موعد حضوري', call_sheet: 'ورقة الاستدعاء الخاصة بك', schedule: 'اختيار موعد' },
    footer_unsubscribe: 'تصلك هذه الرسالة لأنك تقدّمت بطلب إلى {organization}.',
  },
};
