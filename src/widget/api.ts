/**
 * The widget's calls to the service: one JSON request helper that turns every answer
 * into `{ ok, data }` or a stable `ApiError`, and the parsing of the public listing
 * (nothing the API sends is trusted to have the right shape).
 */
import type { Question } from './logic';

export interface ApiError {
  status: number;
  code: string;
  message: string;
  param?: string;
  applicationId?: string;
}

export type ApiResult = { ok: true; data: any } | { ok: false; error: ApiError };

/** What the widget shows of a public listing (and nothing more). */
export interface PublicListing {
  title: string;
  organizationName: string;
  questions: Question[];
  /** The labels of the credentials the listing checks, shown before consent. */
  checks: string[];
  /** The listing orders a background check: the vendor's invitation needs the candidate's email. */
  emailRequired: boolean;
  profile_apply?: { button_text?: string; theme?: string };
}

export const isString = (v: unknown): v is string => typeof v === 'string';
/** A string from an answer, else `fallback` (an answer's shape is never trusted). */
export function text(v: unknown): string;
export function text<F>(v: unknown, fallback: F): string | F;
export function text(v: unknown, fallback: unknown = ''): unknown {
  return isString(v) ? v : fallback;
}
export const httpUrl = (v: unknown): string | undefined => (isString(v) && /^https?:\/\//i.test(v) ? v : undefined);
/** An error the widget itself observed (no HTTP status). */
export const localError = (code: string, message = ''): ApiError => ({ status: 0, code, message });

export function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A JSON call without cookies; a failure to reach the service is `network_error`. */
export async function request(method: string, url: string, body?: string, headers: Record<string, string> = {}): Promise<ApiResult> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      mode: 'cors',
      credentials: 'omit',
      cache: 'no-store',
      headers: { Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body,
    });
  } catch {
    return { ok: false, error: localError('network_error') };
  }
  let data: any;
  try {
    data = await response.json();
  } catch {
    data = undefined;
  }
  if (response.ok) return { ok: true, data };
  const e = data?.error ?? {};
  return {
    ok: false,
    error: {
      status: response.status,
      code: text(e.code, `http_${response.status}`),
      message: text(e.message),
      param: text(e.param, undefined),
      applicationId: text(e.application_id, undefined),
    },
  };
}

function parseQuestions(value: unknown): Question[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((q): q is Question => q && isString(q.key) && isString(q.label) && ['number', 'boolean', 'text', 'select'].includes(q.type))
    .map((q) => ({
      key: q.key,
      label: q.label,
      type: q.type,
      required: q.required === true,
      options: Array.isArray(q.options) ? q.options.filter(isString) : undefined,
    }));
}

/** `GET /v1/public/organizations/{org}/listings/{listing}`'s body, checked field by field. */
export function parseListing(data: any): PublicListing {
  return {
    title: text(data.title),
    organizationName: text(data.organization?.name),
    questions: parseQuestions(data.questions),
    checks: Array.isArray(data.requirements) ? data.requirements.map((r: any) => text(r?.label)).filter(Boolean) : [],
    emailRequired: data.contact?.email === 'required',
    profile_apply: data.profile_apply && typeof data.profile_apply === 'object' ? data.profile_apply : undefined,
  };
}
