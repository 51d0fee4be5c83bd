/**
 * The widget's pure logic: attribute checks, answer coercion, where a server error
 * belongs in the form, and which message a candidate reads for each error code (the
 * words themselves live in the catalogs, src/widget/i18n). No DOM types here, so
 * test/unit can run it under the main tsconfig.
 */
import type { MessageKey, Params } from './i18n/catalog';
import { en } from './i18n/en';

export type QuestionType = 'number' | 'boolean' | 'text' | 'select';
/** The contact fields' input types (never a listing question's: the API's questions have the four above). */
export type FieldType = QuestionType | 'email' | 'tel';

export interface Question {
  key: string;
  label: string;
  type: QuestionType;
  required: boolean;
  options?: string[];
}

export type Theme = 'light' | 'dark' | 'auto';
export type AnswerValue = number | boolean | string;

export const DEFAULT_BUTTON_TEXT = en.button;
export const THEMES: readonly Theme[] = ['light', 'dark', 'auto'];
export const MAX_TEXT_ANSWER = 5000;
export const MAX_COVER_LETTER = 10000;
/** The form field of the cover letter, as `fieldForParam` names it. */
export const COVER_LETTER_FIELD = 'cover_letter';
/** The contact fields, named as the API's params (a dot keeps them apart from question keys); the server validates them. */
export const EMAIL_FIELD = 'contact.email';
export const PHONE_FIELD = 'contact.phone';

const ID = /^[0-9A-Za-z_-]{1,64}$/;
/** Listing ids are the host's: the rule of src/domain/listings/listing-id.ts. */
const LISTING_ID = /^[A-Za-z0-9_.~:@-]{1,128}$/;

export interface WidgetAttributes {
  organizationId: string | null;
  listingId: string | null;
  theme: string | null;
  apiBase: string | null;
}

/** A message and what fills it. */
export interface Message {
  key: MessageKey;
  params?: Params;
}

/** Problems with the element's attributes, as messages for the error state. */
export function attributeProblems(attrs: WidgetAttributes): Message[] {
  const problems: Message[] = [];
  const id = (name: string, value: string | null, prefix: string) => {
    if (!value || !value.trim()) problems.push({ key: 'problem_missing', params: { name } });
    else if (!value.startsWith(`${prefix}_`) || !ID.test(value.slice(prefix.length + 1))) {
      problems.push({ key: 'problem_id', params: { name, value: value.slice(0, 80), prefix } });
    }
  };
  id('organization-id', attrs.organizationId, 'org');
  if (!attrs.listingId || !attrs.listingId.trim()) problems.push({ key: 'problem_missing', params: { name: 'listing-id' } });
  else if (!LISTING_ID.test(attrs.listingId)) problems.push({ key: 'problem_listing_id', params: { value: attrs.listingId.slice(0, 80) } });
  if (attrs.theme !== null && attrs.theme !== '' && !THEMES.includes(attrs.theme as Theme)) {
    problems.push({ key: 'problem_theme', params: { value: attrs.theme.slice(0, 40), themes: THEMES.join(', ') } });
  }
  if (attrs.apiBase !== null && normalizeBase(attrs.apiBase) === undefined) {
    problems.push({ key: 'problem_api_base', params: { value: attrs.apiBase.slice(0, 120) } });
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
  errors: Record<string, Message>;
}

/**
 * Form values (strings, as inputs hold them) → the API's answers: numbers for number
 * questions, true/false for boolean ones ("true"/"false" from the radio pair), strings
 * for text and select. Empty optional answers are left out; empty required ones, and
 * values of the wrong shape, are errors keyed by question.
 */
export function coerceAnswers(questions: readonly Question[], raw: Readonly<Record<string, string | undefined>>, coverLetter = ''): Coerced {
  const answers: Record<string, AnswerValue> = {};
  const errors: Record<string, Message> = {};
  for (const question of questions) {
    const value = (raw[question.key] ?? '').trim();
    if (value === '') {
      if (question.required) errors[question.key] = { key: question.type === 'boolean' || question.type === 'select' ? 'choose_answer' : 'required' };
      continue;
    }
    switch (question.type) {
      case 'number': {
        const number = Number(value.replace(',', '.'));
        if (!/^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$/.test(value) || !Number.isFinite(number)) errors[question.key] = { key: 'enter_number' };
        else answers[question.key] = number;
        break;
      }
      case 'boolean':
        if (value === 'true') answers[question.key] = true;
        else if (value === 'false') answers[question.key] = false;
        else errors[question.key] = { key: 'choose_yes_no' };
        break;
      case 'select':
        if ((question.options ?? []).includes(value)) answers[question.key] = value;
        else errors[question.key] = { key: 'choose_option' };
        break;
      default:
        if (value.length > MAX_TEXT_ANSWER) errors[question.key] = { key: 'too_long', params: { max: MAX_TEXT_ANSWER } };
        else answers[question.key] = value;
    }
  }
  if (coverLetter.length > MAX_COVER_LETTER) errors[COVER_LETTER_FIELD] = { key: 'cover_too_long', params: { max: MAX_COVER_LETTER } };
  return { answers, errors };
}

/** The form field an API error's `param` names: `answers.years` → `years`; `cover_letter`; else undefined. */
export function fieldForParam(param: unknown, questions: readonly Question[]): string | undefined {
  if (typeof param !== 'string') return undefined;
  if (param === 'cover_letter') return COVER_LETTER_FIELD;
  if (param === EMAIL_FIELD || param === PHONE_FIELD) return param;
  const match = /^answers\.([a-z][a-z0-9_]*)$/.exec(param);
  if (match && questions.some((q) => q.key === match[1])) return match[1];
  return undefined;
}

/** A per-field message for a 400 the server returned for a field. */
export function fieldMessage(code: string): MessageKey {
  if (code === 'parameter_missing') return 'required';
  if (code === 'parameter_unknown') return 'answer_unknown';
  return 'answer_invalid';
}

/** How a message is shown: `info` is neutral (a choice the candidate made, a pause), `error` is red. */
export type MessageKind = 'info' | 'error';

/**
 * Every error code the widget can meet (connect-flow codes, API codes, its own) and the
 * message for it: one table, so a new code slots in here. Provider failures name the
 * provider, never the employer.
 */
const ERROR_MESSAGES: Readonly<Record<string, MessageKey>> = {
  consent_denied: 'consent_denied',
  state_mismatch: 'sign_in_unverified',
  provider_unavailable: 'provider_down',
  provider_client_rejected: 'provider_refused',
  // From the apply call (502) the provider answered something unusable; from the connect
  // flow (no status) it could not complete the sign-in, for whichever reason.
  provider_error: 'provider_sign_in',
  profile_not_authorized: 'authorization_gone',
  candidate_session_mismatch: 'authorization_gone',
  invalid_candidate_token: 'session_expired',
  listing_closed: 'closed',
  listing_unavailable: 'closed',
  resource_missing: 'closed',
  integration_disabled: 'not_available',
  license_required: 'not_available',
  provider_not_configured: 'not_available',
  unavailable: 'not_available',
  origin_not_allowed: 'origin_not_allowed',
  payment_required: 'paused',
  duplicate_application: 'duplicate',
  popup_closed: 'popup_closed',
  popup_blocked: 'popup_blocked',
  rate_limited: 'rate_limited',
  network_error: 'network',
};

/** Neutral outcomes: not the candidate's mistake, nor anything broken. */
const NEUTRAL = new Set<MessageKey>(['consent_denied', 'paused', 'duplicate']);

/** What a candidate reads for an error code (and its HTTP status, when it came from an HTTP answer). */
export function errorMessage(code: string, status?: number): { key: MessageKey; kind: MessageKind } {
  let key: MessageKey | undefined = code === 'provider_error' && status === 502 ? 'provider_unusable' : ERROR_MESSAGES[code];
  if (!key) {
    if (status === 401) key = 'session_expired';
    else if (status === 402) key = 'paused';
    else if (status !== undefined && status >= 500) key = 'server';
    else key = 'unknown';
  }
  return { key, kind: NEUTRAL.has(key) ? 'info' : 'error' };
}

/** Codes after which the candidate must authorize again (the session is of no more use). */
export function needsReauthorization(code: string, status?: number): boolean {
  return status === 401 || code === 'profile_not_authorized' || code === 'candidate_session_mismatch';
}

/** Codes (or statuses) after which this listing takes no profile application now. */
export function listingUnavailable(code: string, status?: number): boolean {
  return (
    ['listing_closed', 'listing_unavailable', 'integration_disabled', 'license_required', 'resource_missing', 'payment_required'].includes(code) ||
    status === 402 ||
    status === 404 ||
    status === 410
  );
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
