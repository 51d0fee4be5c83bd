/**
 * The widget's states (what `data-state` reflects) and the data that moves it from one to
 * the next: the candidate session the connect flow hands back and the result of a submit.
 *
 *   loading → idle ─click→ waiting ─authorized→ form ─submit→ done
 *      │        ▲ (blocked: continue in this tab)  │ already applied → done (duplicate)
 *      └→ invalid (attributes)    unavailable ←────┘ (closed, paused, not licensed)
 */
import { httpUrl, isString, text } from './api';
import type { Message } from './logic';

export type View =
  | { name: 'invalid'; problems: Message[] }
  | { name: 'loading' }
  /** `blocked`: the popup was blocked; offer to continue in this tab. */
  | { name: 'idle'; blocked?: boolean }
  | { name: 'waiting' }
  | { name: 'form'; busy: boolean }
  /** `duplicate`: the candidate had applied before (`appliedAt` when known); `workHistory`: experience was shared. */
  | { name: 'done'; applicationId: string; duplicate: boolean; appliedAt?: Date; skills?: number; credentials?: number; workHistory?: boolean }
  | { name: 'unavailable'; code: string };

export type DoneView = Extract<View, { name: 'done' }>;

export interface Candidate {
  name: string;
  headline: string;
  profileUrl: string;
  /** The provider's verified email, when it gave one (prefills the form's email). */
  email?: string;
}

/** The candidate session: kept in the element's memory only, never in the DOM, storage or an event. */
export interface Session {
  token: string;
  expiresAt: number;
  profileUserId: string;
  candidate: Candidate;
}

/** The session in a `profile-apply:authorized` message, or undefined when the message lacks one. */
export function sessionFrom(data: Record<string, any>): Session | undefined {
  if (!isString(data.candidate_token) || !isString(data.profile_user_id)) return undefined;
  const expires = Date.parse(String(data.expires_at));
  const candidate = data.candidate ?? {};
  return {
    token: data.candidate_token,
    // Without a readable expiry, the service's own default lifetime (15 minutes).
    expiresAt: Number.isFinite(expires) ? expires : Date.now() + 15 * 60_000,
    profileUserId: data.profile_user_id,
    candidate: {
      name: text(candidate.name),
      headline: text(candidate.headline),
      profileUrl: httpUrl(candidate.profile_url) ?? '',
      ...(isString(candidate.email) && candidate.email.length <= 254 ? { email: candidate.email } : {}),
    },
  };
}

/** The earlier application an authorized message reports, as the done state (said before any form). */
export function alreadyApplied(earlier: any): DoneView | undefined {
  if (!earlier || !isString(earlier.application_id)) return undefined;
  const appliedAt = new Date(String(earlier.applied_at));
  return { name: 'done', applicationId: earlier.application_id, duplicate: true, appliedAt: Number.isNaN(appliedAt.getTime()) ? undefined : appliedAt };
}

/** A successful submit's answer as the done state: only what was shared is counted. */
export function submitted(data: any): DoneView {
  const experience = data.experience_summary ?? {};
  return {
    name: 'done',
    applicationId: String(data.application_id ?? ''),
    duplicate: false,
    skills: Array.isArray(data.imported_skills) ? data.imported_skills.length : undefined,
    credentials: Array.isArray(data.imported_credentials) ? data.imported_credentials.length : undefined,
    workHistory: Number(experience.total_years) > 0 || isString(experience.current_title),
  };
}
