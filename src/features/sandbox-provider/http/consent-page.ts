import { escapeHtml, pageShell } from '../../../platform/http/html';
import type { SandboxCandidate } from '../domain/candidates';

const SCOPE_DESCRIPTIONS: Record<string, string> = {
  profile: 'Your name, headline and public profile address',
  skills: 'Your skills and whether each is verified',
  credentials: 'Your credentials: title, issuer, date and verification',
  experience: 'Your work history: titles, employers and dates',
};

export interface ConsentRequest {
  clientName: string;
  /** As the client stated it in the authorization request (`hi_organization`, `hi_listing`); may be empty. */
  organizationName?: string;
  listingTitle?: string;
  scopes: string[];
  candidates: readonly SandboxCandidate[];
  ticket: string;
  action: string;
  nonce: string;
}

/** Who asks (the organization, through our client), for which listing, and what they receive. */
function requester(options: ConsentRequest): string {
  const client = `<strong>${escapeHtml(options.clientName)}</strong>`;
  if (!options.organizationName) return `<h1>${client} wants to read your profile</h1>`;
  const purpose = options.listingTitle
    ? `For your application to <strong>${escapeHtml(options.listingTitle)}</strong>, through ${client}.`
    : `Through ${client}.`;
  return `<h1><strong>${escapeHtml(options.organizationName)}</strong> wants to read your profile</h1>
<p>${purpose}</p>`;
}

export function consentPage(options: ConsentRequest): string {
  const shared = options.scopes.map((s) => `<li>${escapeHtml(SCOPE_DESCRIPTIONS[s] ?? s)}</li>`).join('');
  const buttons = options.candidates
    .map((c) => `<button class="primary" type="submit" name="user_id" value="${escapeHtml(c.id)}">Authorize as ${escapeHtml(c.name)}</button>`)
    .join('\n');
  return pageShell(
    'Share your profile — Sandbox profile provider',
    `<p class="muted">Sandbox profile provider (test mode)</p>
${requester(options)}
<p>It will receive:</p><ul>${shared}</ul>
<form method="post" action="${escapeHtml(options.action)}">
<input type="hidden" name="request" value="${escapeHtml(options.ticket)}">
${buttons}
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
    options.nonce,
  );
}

export function sandboxErrorPage(message: string, nonce: string): string {
  return pageShell('Sandbox profile provider', `<h1>Authorization request rejected</h1><p>${escapeHtml(message)}</p>`, nonce);
}

export function publicProfilePage(candidate: SandboxCandidate, nonce: string): string {
  const skills = candidate.skills.map((s) => `<li>${escapeHtml(s.name)}${s.verified ? ' ✓ verified' : ''}</li>`).join('');
  const positions = candidate.positions
    .map((p) => `<li>${escapeHtml(p.title)}, ${escapeHtml(p.company)} (${escapeHtml(p.start_date)} – ${escapeHtml(p.end_date ?? 'present')})</li>`)
    .join('');
  return pageShell(
    candidate.name,
    `<p class="muted">Sandbox public profile</p><h1>${escapeHtml(candidate.name)}</h1><p>${escapeHtml(candidate.headline ?? '')}</p><h2>Skills</h2><ul>${skills}</ul><h2>Experience</h2><ul>${positions}</ul>`,
    nonce,
  );
}
