/**
 * What a shift's person reads (SMS, the reminder email, the confirmation page), in the six
 * message languages; `{name}` placeholders are filled by `fill` (escape for HTML first).
 * SMS texts stay short: a GSM-7 segment is 160 characters and the link takes about 100.
 */
import type { MessageLocale } from '../../messages/domain/message-language';

export interface ShiftStrings {
  /** The event's SUMMARY (calendar, invitation subject): with and without a role. */
  summary_role: string;
  summary: string;
  sms_new: string;
  sms_changed: string;
  sms_cancelled: string;
  sms_reminder: string;
  reminder_subject: string;
  reminder_body: string;
  page_title: string;
  page_question: string;
  confirm_button: string;
  decline_button: string;
  confirmed: string;
  declined: string;
  cancelled: string;
  changed: string;
  when: string;
  where: string;
  role: string;
  notes: string;
}

export const SHIFT_STRINGS: Record<MessageLocale, ShiftStrings> = {
  en: {
    summary_role: '{role} shift — {location}',
    summary: 'Shift — {location}',
    sms_new: '{name}, your shift: {when}, {location}. Confirm or decline: {url}',
    sms_changed: '{name}, your shift changed: {when}, {location}. Confirm or decline: {url}',
    sms_cancelled: '{name}, your shift of {when} at {location} is cancelled.',
    sms_reminder: 'Reminder: your shift starts {when} at {location}. {url}',
    reminder_subject: 'Reminder: your shift, {when}',
    reminder_body: 'Hello {name},\n\nyour shift starts {when} at {location}.\n\nConfirm or decline: {url}',
    page_title: 'Your shift',
    page_question: 'Can you work this shift?',
    confirm_button: 'I will be there',
    decline_button: 'I cannot make it',
    confirmed: 'Thank you, your shift is confirmed.',
    declined: 'Thank you, we know you cannot make it.',
    cancelled: 'This shift was cancelled.',
    changed: 'This shift changed since you opened the page. Please check it again.',
    when: 'When',
    where: 'Where',
    role: 'Role',
    notes: 'Notes',
  },
  es: {
    summary_role: 'Turno de {role} — {location}',
    summary: 'Turno — {location}',
    sms_new: '{name}, tu turno: {when}, {location}. Confirma o rechaza: {url}',
    sms_changed: '{name}, tu turno cambió: {when}, {location}. Confirma o rechaza: {url}',
    sms_cancelled: '{name}, tu turno del {when} en {location} se canceló.',
    sms_reminder: 'Recordatorio: tu turno empieza {when} en {location}. {url}',
    reminder_subject: 'Recordatorio: tu turno, {when}',
    reminder_body: 'Hola {name}:\n\ntu turno empieza {when} en {location}.\n\nConfirma o rechaza: {url}',
    page_title: 'Tu turno',
    page_question: '¿Puedes trabajar este turno?',
    confirm_button: 'Ahí estaré',
    decline_button: 'No puedo',
    confirmed: 'Gracias, tu turno está confirmado.',
    declined: 'Gracias, sabemos que no puedes.',
    cancelled: 'Este turno se canceló.',
    changed: 'Este turno cambió desde que abriste la página. Revísalo de nuevo.',
    when: 'Cuándo',
    where: 'Dónde',
    role: 'Puesto',
    notes: 'Notas',
  },
  fr: {
    summary_role: 'Service {role} — {location}',
    summary: 'Service — {location}',
    sms_new: '{name}, votre service : {when}, {location}. Confirmez ou refusez : {url}',
    sms_changed: '{name}, votre service a changé : {when}, {location}. Confirmez ou refusez : {url}',
    sms_cancelled: '{name}, votre service du {when} à {location} est annulé.',
    sms_reminder: 'Rappel : votre service commence {when} à {location}. {url}',
    reminder_subject: 'Rappel : votre service, {when}',
    reminder_body: 'Bonjour {name},\n\nvotre service commence {when} à {location}.\n\nConfirmez ou refusez : {url}',
    page_title: 'Votre service',
    page_question: 'Pouvez-vous assurer ce service ?',
    confirm_button: 'Je serai là',
    decline_button: 'Je ne peux pas',
    confirmed: 'Merci, votre service est confirmé.',
    declined: 'Merci, nous savons que vous ne pouvez pas venir.',
    cancelled: 'Ce service a été annulé.',
    changed: 'Ce service a changé depuis l’ouverture de la page. Merci de le vérifier à nouveau.',
    when: 'Quand',
    where: 'Où',
    role: 'Poste',
    notes: 'Remarques',
  },
  de: {
    summary_role: 'Schicht {role} — {location}',
    summary: 'Schicht — {location}',
    sms_new: '{name}, deine Schicht: {when}, {location}. Zusagen oder absagen: {url}',
    sms_changed: '{name}, deine Schicht hat sich geändert: {when}, {location}. Zusagen oder absagen: {url}',
    sms_cancelled: '{name}, deine Schicht am {when} in {location} fällt aus.',
    sms_reminder: 'Erinnerung: deine Schicht beginnt {when} in {location}. {url}',
    reminder_subject: 'Erinnerung: deine Schicht, {when}',
    reminder_body: 'Hallo {name},\n\ndeine Schicht beginnt {when} in {location}.\n\nZusagen oder absagen: {url}',
    page_title: 'Deine Schicht',
    page_question: 'Kannst du diese Schicht übernehmen?',
    confirm_button: 'Ich bin dabei',
    decline_button: 'Ich kann nicht',
    confirmed: 'Danke, deine Schicht ist bestätigt.',
    declined: 'Danke, wir wissen Bescheid, dass du nicht kannst.',
    cancelled: 'Diese Schicht fällt aus.',
    changed: 'Diese Schicht hat sich geändert, seit du die Seite geöffnet hast. Bitte prüfe sie noch einmal.',
    when: 'Wann',
    where: 'Wo',
    role: 'Aufgabe',
    notes: 'Hinweise',
  },
  pt: {
    summary_role: 'Turno de {role} — {location}',
    summary: 'Turno — {location}',
    sms_new: '{name}, seu turno: {when}, {location}. Confirme ou recuse: {url}',
    sms_changed: '{name}, seu turno mudou: {when}, {location}. Confirme ou recuse: {url}',
    sms_cancelled: '{name}, seu turno de {when} em {location} foi cancelado.',
    sms_reminder: 'Lembrete: seu turno começa {when} em {location}. {url}',
    reminder_subject: 'Lembrete: seu turno, {when}',
    reminder_body: 'Olá {name},\n\nseu turno começa {when} em {location}.\n\nConfirme ou recuse: {url}',
    page_title: 'Seu turno',
    page_question: 'Você pode trabalhar neste turno?',
    confirm_button: 'Estarei lá',
    decline_button: 'Não posso',
    confirmed: 'Obrigado, seu turno está confirmado.',
    declined: 'Obrigado, sabemos que você não pode.',
    cancelled: 'Este turno foi cancelado.',
    changed: 'Este turno mudou desde que você abriu a página. Verifique-o novamente.',
    when: 'Quando',
    where: 'Onde',
    role: 'Função',
    notes: 'Observações',
  },
  ar: {
    summary_role: 'نوبة {role} — {location}',
    summary: 'نوبة — {location}',
    sms_new: '{name}، نوبتك: {when}، {location}. للتأكيد أو الاعتذار: {url}',
    sms_changed: '{name}، تغيّرت نوبتك: {when}، {location}. للتأكيد أو الاعتذار: {url}',
    sms_cancelled: '{name}، أُلغيت نوبتك في {when} في {location}.',
    sms_reminder: 'تذكير: تبدأ نوبتك {when} في {location}. {url}',
    reminder_subject: 'تذكير: نوبتك، {when}',
    reminder_body: 'مرحبًا {name}،\n\nتبدأ نوبتك {when} في {location}.\n\nللتأكيد أو الاعتذار: {url}',
    page_title: 'نوبتك',
    page_question: 'هل يمكنك العمل في هذه النوبة؟',
    confirm_button: 'سأحضر',
    decline_button: 'لا أستطيع',
    confirmed: 'شكرًا، تم تأكيد نوبتك.',
    declined: 'شكرًا، علمنا أنك لا تستطيع الحضور.',
    cancelled: 'أُلغيت هذه النوبة.',
    changed: 'تغيّرت هذه النوبة منذ أن فتحت الصفحة. يُرجى مراجعتها مجددًا.',
    when: 'الموعد',
    where: 'المكان',
    role: 'الدور',
    notes: 'ملاحظات',
  },
};

export function fill(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => params[key] ?? whole);
}
