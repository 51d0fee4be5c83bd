/** The invitation email: who invites, to which job, the link, until when, and why the candidate hears from us. */
export function invitationEmail(input: { organizationName: string; listingTitle: string; link: string; expiresAt: Date; note?: string }): {
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
    'If you no longer want this, reply to this message and the organization will remove you.',
  ];
  return { subject: `${input.organizationName} invites you to apply: ${input.listingTitle}`, text: lines.join('\n') };
}
