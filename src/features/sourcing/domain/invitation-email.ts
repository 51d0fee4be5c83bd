/**
 * The invitation email: who invites, to which job, the link, until when, why the candidate
 * hears from us, and a one-click way to stop (the same signed link the List-Unsubscribe
 * header carries: it withdraws the consent to be contacted again). Written in the language
 * the candidate applied in (kept with their consent), the date for that language; English
 * when none was given.
 */
import { formatMoment, messageLanguage } from '../../messages/domain/message-language';
import { fillInvitation, INVITATION_EMAIL_STRINGS } from './invitation-email-strings';

export function invitationEmail(input: {
  organizationName: string;
  listingTitle: string;
  link: string;
  expiresAt: Date;
  note?: string;
  unsubscribeUrl: string;
  language?: string | null;
}): {
  subject: string;
  text: string;
  language: string;
} {
  const language = messageLanguage(input.language ?? undefined);
  const s = INVITATION_EMAIL_STRINGS[language.locale];
  const params = {
    organization: input.organizationName,
    title: input.listingTitle,
    until: formatMoment(input.expiresAt, language, 'UTC', 'date'),
    url: input.unsubscribeUrl,
  };
  const lines = [
    fillInvitation(s.invites, params),
    '',
    ...(input.note ? [input.note, ''] : []),
    fillInvitation(s.apply, params),
    input.link,
    '',
    fillInvitation(s.why, params),
    fillInvitation(s.withdraw, params),
  ];
  return { subject: fillInvitation(s.subject, params), text: lines.join('\n'), language: language.tag };
}
