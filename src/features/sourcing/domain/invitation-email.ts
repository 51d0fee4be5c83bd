/**
 * The invitation email: who invites, to which job, the link, until when, why the candidate
 * hears from us, and a one-click way to stop (the same signed link the List-Unsubscribe
 * header carries: it withdraws the consent to be contacted again).
 */
export function invitationEmail(input: {
  organizationName: string;
  listingTitle: string;
  link: string;
  expiresAt: Date;
  note?: string;
  unsubscribeUrl: string;
}): {
  subject: string;
  text: string;
} {
  const until = input.expiresAt.toISOString().slice(0, 10);
  const lines = [
    `${input.organizationName} invites you to apply for "${input.listingTitle}".`,
    '',
    ...(input.note ? [input.note, ''] : []),
    `Apply here (the link is for you only and works once, until ${until}):`,
    input.link,
    '',
    `You receive this because, when you last applied to ${input.organizationName}, you agreed to be contacted about other jobs.`,
    `To withdraw that consent and receive no more invitations: ${input.unsubscribeUrl}`,
  ];
  return { subject: `${input.organizationName} invites you to apply: ${input.listingTitle}`, text: lines.join('\n') };
}
