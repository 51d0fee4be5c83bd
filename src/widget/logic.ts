/**
 * The widget's pure logic: attribute checks, answer coercion, where a server error
 * belongs in the form, and the words a candidate reads for each error code. No DOM
 * types here, so test/unit can run it under the main tsconfig.
 */

export type QuestionType = 'number' | 'boolean' | 'text' | 'select';

export interface Question {
  key: string;
  label: string;
  type: QuestionType;
  required: boolean;
  options?: string[];
}

export type Theme = 'light' | 'dark' | 'auto';
export type AnswerValue = number | boolean | string;

export const DEFAULT_BUTTON_TEXT = 'Apply with profile';
export const THEMES: readonly Theme[] = ['light', 'dark', 'auto'];
export const MAX_TEXT_ANSWER = 5000;
export const MAX_COVER_LETTER = 10000;
/** The form field of the cover letter, as `fieldForParam` names it. */
export const COVER_LETTER_FIELD = 'cover_letter';

const ID = /^[0-9A-Za-z_-]{1,64}$/;

export interface WidgetAttributes {
  organizationId: string | null;
  listingId: string | null;
  theme: string | null;
  apiBase: string | null;
}

/** Problems with the element's attributes, as sentences for the error state. */
export function attributeProblems(attrs: WidgetAttributes): string[] {
  const problems: string[] = [];
  const id = (name: string, value: string | null, prefix: string) => {
    if (!value || !value.trim()) problems.push(`the ${name} attribute is missing`);
    else if (!value.startsWith(`${prefix}_`) || !ID.test(value.slice(prefix.length + 1))) {
      problems.push(`${name} "${value.slice(0, 80)}" is not a valid id (expected ${prefix}_…)`);
    }
  };
  id('organization-id', attrs.organizationId, 'org');
  id('listing-id', attrs.listingId, 'listing');
  if (attrs.theme !== null && attrs.theme !== '' && !THEMES.includes(attrs.theme as Theme)) {
    problems.push(`theme "${attrs.theme.slice(0, 40)}" is not one of ${THEMES.join(', ')}`);
  }
  if (attrs.apiBase !== null && normalizeBase(attrs.apiBase) === undefined) {
    problems.push(`api-base "${attrs.apiBase.slice(0, 120)}" is not an http(s) URL`);
  }
  return problems;
}

/** An API base without a trailing slash, or undefined when it is not an http(s) URL. */
export function normalizeBase(value: string): string | undefined {
  const trimmed = value.trim();
  if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(trimmed)) return undefined;
  return trimmed.replace(/\/+$/, '');
}

/** The origin of an http(s) URL (scheme://host[:port]); default ports dropped, host lower-cased. */
export function originOf(base: string): string {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(base);
  if (!match) return '';
  const scheme = match[1]!.toLowerCase();
  let host = match[2]!.toLowerCase().replace(/^[^@]*@/, '');
  if ((scheme === 'http' && host.endsWith(':80')) || (scheme === 'https' && host.endsWith(':443'))) host = host.replace(/:\d+$/, '');
  return `${scheme}://${host}`;
}

/**
 * The service's base from the script's own URL: `{base}/widgets/profile-apply.js` (or its
 * versioned name) gives `{base}`; any other file name gives the script's origin.
 */
export function baseFromScriptUrl(src: string): string | undefined {
  const clean = src.replace(/[?#].*$/, '');
  const match = /^(https?:\/\/[^/]+(?:\/.*)?)\/widgets\/profile-apply(?:\.[0-9a-f]{8,64})?\.js$/i.exec(clean);
  if (match) return normalizeBase(match[1]!);
  const origin = originOf(clean);
  return origin || undefined;
}

export interface Coerced {
  answers: Record<string, AnswerValue>;
  /** Question key (or COVER_LETTER_FIELD) → message. */
  errors: Record<string, string>;
}

/**
 * Form values (strings, as inputs hold them) → the API's answers: numbers for number
 * questions, true/false for boolean ones ("true"/"false" from the radio pair), strings
 * for text and select. Empty optional answers are left out; empty required ones, and
 * values of the wrong shape, are errors keyed by question.
 */
export function coerceAnswers(questions: readonly Question[], raw: Readonly<Record<string, string | undefined>>, coverLetter = ''): Coerced {
  const answers: Record<string, AnswerValue> = {};
  const errors: Record<string, string> = {};
  for (const question of questions) {
    const value = (raw[question.key] ?? '').trim();
    if (value === '') {
      if (question.required) errors[question.key] = question.type === 'boolean' || question.type === 'select' ? 'Choose an answer.' : 'This question is required.';
      continue;
    }
    switch (question.type) {
      case 'number': {
        const number = Number(value.replace(',', '.'));
        if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$/.test(value) || !Number.isFinite(number)) errors[question.key] = 'Enter a number.';
        else answers[question.key] = number;
        break;
      }
      case 'boolean':
        if (value === 'true') answers[question.key] = true;
        else if (value === 'false') answers[question.key] = false;
        else errors[question.key] = 'Choose yes or no.';
        break;
      case 'select':
        if ((question.options ?? []).includes(value)) answers[question.key] = value;
        else errors[question.key] = 'Choose one of the options.';
        break;
      default:
        if (value.length > MAX_TEXT_ANSWER) errors[question.key] = `Keep this under ${MAX_TEXT_ANSWER} characters.`;
        else answers[question.key] = value;
    }
  }
  if (coverLetter.length > MAX_COVER_LETTER) errors[COVER_LETTER_FIELD] = `Keep your cover letter under ${MAX_COVER_LETTER} characters.`;
  return { answers, errors };
}

/** The form field an API error's `param` names: `answers.years` → `years`; `cover_letter`; else undefined. */
export function fieldForParam(param: unknown, questions: readonly Question[]): string | undefined {
  if (typeof param !== 'string') return undefined;
  if (param === 'cover_letter') return COVER_LETTER_FIELD;
  const match = /^answers\.([a-z][a-z0-9_]*)$/.exec(param);
  if (match && questions.some((q) => q.key === match[1])) return match[1];
  return undefined;
}

/** A per-field message for a 400 the server returned for a field. */
export function fieldMessage(code: string): string {
  switch (code) {
    case 'parameter_missing':
      return 'This question is required.';
    case 'parameter_unknown':
      return 'This question is no longer part of the listing. Reload the page.';
    default:
      return 'This answer is not valid.';
  }
}

/** What a candidate reads for an error code (connect-flow codes and API codes). */
export function errorMessage(code: string, status?: number): string {
  switch (code) {
    case 'consent_denied':
      return 'You chose not to share your profile, so nothing was sent. You can try again whenever you like.';
    case 'state_mismatch':
      return 'The sign-in could not be verified. Please try again.';
    case 'provider_error':
      return 'The profile provider could not be reached. Please try again in a moment.';
    case 'listing_unavailable':
    case 'listing_closed':
      return 'This listing no longer accepts applications.';
    case 'origin_not_allowed':
      return 'Profile applications are not enabled on this website.';
    case 'duplicate_application':
      return 'You have already applied to this listing.';
    case 'popup_closed':
      return 'The sign-in window was closed before you finished. Your profile was not shared.';
    case 'popup_blocked':
      return 'Your browser blocked the sign-in window. Allow pop-ups for this site and try again, or continue in this tab.';
    case 'payment_required':
      return 'Applications are paused for this listing. Please check back later.';
    case 'integration_disabled':
    case 'license_required':
    case 'unavailable':
      return 'Profile applications are not available for this listing right now.';
    case 'profile_not_authorized':
    case 'candidate_session_mismatch':
      return 'Your profile authorization is no longer valid. Please authorize again.';
    case 'rate_limited':
      return 'Too many attempts. Please wait a minute and try again.';
    case 'network_error':
      return 'Could not reach the application service. Check your connection and try again.';
  }
  if (status === 401) return 'Your authorization has expired. Please authorize again.';
  if (status !== undefined && status >= 500) return 'Something went wrong on our side. Please try again.';
  return 'Something went wrong. Please try again.';
}

/** Codes after which the candidate must authorize again (the session is of no more use). */
export function needsReauthorization(code: string, status?: number): boolean {
  return status === 401 || code === 'profile_not_authorized' || code === 'candidate_session_mismatch';
}

/** The URL fragment the connect flow returns with in redirect mode (a blocked popup). */
export const RESULT_FRAGMENT = 'profile-apply-result';

/** The connect flow's result from a URL fragment (`#profile-apply-result=<base64url JSON>`), if any. */
export function resultFromFragment(hash: string): Record<string, unknown> | undefined {
  const match = new RegExp(`(?:^#|&)${RESULT_FRAGMENT}=([A-Za-z0-9_-]+)`).exec(hash);
  if (!match) return undefined;
  try {
    const b64 = match[1]!.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const data: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))));
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
