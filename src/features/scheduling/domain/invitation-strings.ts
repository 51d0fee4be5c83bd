/**
 * The text part and subject of an iTIP invitation (invitations.ts) in the six message
 * languages: the .ics is language-neutral, what the person reads first is not.
 */
import type { MessageLocale } from '../../messages/domain/message-language';

export interface InvitationStrings {
  /** Subject prefixes: a new event, a changed one (SEQUENCE > 0), a cancelled one. */
  invitation: string;
  updated: string;
  canceled: string;
  canceled_line: string;
  when: string;
  where: string;
  respond: string;
  organizer: string;
}

export const INVITATION_STRINGS: Record<MessageLocale, InvitationStrings> = {
  en: {
    invitation: 'Invitation',
    updated: 'Updated',
    canceled: 'Canceled',
    canceled_line: 'This event has been canceled.',
    when: 'When',
    where: 'Where',
    respond: 'Details and reply',
    organizer: 'Organizer',
  },
  es: {
    invitation: 'Invitación',
    updated: 'Actualizado',
    canceled: 'Cancelado',
    canceled_line: 'Este evento se ha cancelado.',
    when: 'Cuándo',
    where: 'Dónde',
    respond: 'Detalles y respuesta',
    organizer: 'Organizador',
  },
  fr: {
    invitation: 'Invitation',
    updated: 'Mise à jour',
    canceled: 'Annulé',
    canceled_line: 'Cet événement a été annulé.',
    when: 'Quand',
    where: 'Où',
    respond: 'Détails et réponse',
    organizer: 'Organisateur',
  },
  de: {
    invitation: 'Einladung',
    updated: 'Geändert',
    canceled: 'Abgesagt',
    canceled_line: 'Dieser Termin wurde abgesagt.',
    when: 'Wann',
    where: 'Wo',
    respond: 'Details und Antwort',
    organizer: 'Organisator',
  },
  pt: {
    invitation: 'Convite',
    updated: 'Atualizado',
    canceled: 'Cancelado',
    canceled_line: 'Este evento foi cancelado.',
    when: 'Quando',
    where: 'Onde',
    respond: 'Detalhes e resposta',
    organizer: 'Organizador',
  },
  ar: {
    invitation: 'دعوة',
    updated: 'تحديث',
    canceled: 'إلغاء',
    canceled_line: 'أُلغي هذا الموعد.',
    when: 'الموعد',
    where: 'المكان',
    respond: 'التفاصيل والرد',
    organizer: 'المنظِّم',
  },
};
