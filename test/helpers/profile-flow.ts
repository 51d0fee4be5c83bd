/**
 * Drives the connect popup over real HTTP, as a browser would: a cookie jar, redirects
 * followed by hand (so each hop can be inspected), and the sandbox consent form POSTed.
 */
import { strict as assert } from 'node:assert';
import { rememberSecret, rememberSecretsIn } from './log-capture';
import type { TestHost } from './test-host';

export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair!.indexOf('=');
      const name = pair!.slice(0, index).trim();
      const value = pair!.slice(index + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  get size(): number {
    return this.cookies.size;
  }
}

export interface Hop {
  status: number;
  location?: string;
  headers: Headers;
  text: string;
}

export async function browse(
  jar: CookieJar,
  url: string,
  init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Hop> {
  const headers: Record<string, string> = { ...init.headers };
  if (jar.size > 0) headers.cookie = jar.header();
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
  jar.store(response);
  const text = await response.text();
  return { status: response.status, location: response.headers.get('location') ?? undefined, headers: response.headers, text };
}

export interface PopupResult {
  target_origin: string;
  message: Record<string, any>;
}

/** The posted message and its target origin, from the popup page's JSON data block. */
export function popupResult(html: string): PopupResult | undefined {
  const match = /<script type="application\/json" id="hi-popup-result">([\s\S]*?)<\/script>/.exec(html);
  if (!match) return undefined;
  const result = JSON.parse(match[1]!) as PopupResult;
  rememberSecretsIn(result);
  return result;
}

/** Redirect mode: where the callback page sends the browser (the listing page, with the result in its fragment). */
export function returnUrl(html: string): string | undefined {
  const match = /<script type="application\/json" id="hi-return">([\s\S]*?)<\/script>/.exec(html);
  return match ? (JSON.parse(match[1]!) as { url: string }).url : undefined;
}

export interface ConsentForm {
  action: string;
  hidden: Record<string, string>;
  /** Button label → its name/value. */
  buttons: Map<string, { name: string; value: string }>;
}

export function parseConsentForm(html: string, baseUrl: string): ConsentForm {
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  assert.ok(action, 'the consent page has a form');
  const hidden: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) hidden[m[1]!] = m[2]!.replace(/&amp;/g, '&');
  const buttons = new Map<string, { name: string; value: string }>();
  for (const m of html.matchAll(/<button[^>]*name="([^"]+)" value="([^"]+)">([^<]+)<\/button>/g)) buttons.set(m[3]!, { name: m[1]!, value: m[2]! });
  return { action: new URL(action, baseUrl).toString(), hidden, buttons };
}

export interface ConnectRun {
  jar: CookieJar;
  start: Hop;
  authorizeUrl: URL;
  consent: Hop;
  consentForm: ConsentForm;
  callbackUrl?: URL;
  callback?: Hop;
  result?: PopupResult;
}

/** Start → provider authorize → consent form → (press `button`) → callback page. */
export async function runConnect(
  t: Pick<TestHost, 'baseUrl'>,
  input: {
    organizationId: string;
    listingId: string;
    origin: string;
    button: string;
    tamper?: (callback: URL) => void | Promise<void>;
    /** More query parameters for the start. */
    query?: Record<string, string>;
    /** Redirect mode: the widget's form POST from the listing page (its Origin header) with return_to and client_state. */
    redirect?: { returnTo: string; clientState: string; startedFrom?: string };
  },
): Promise<ConnectRun> {
  const jar = new CookieJar();
  const params = { organization_id: input.organizationId, listing_id: input.listingId, origin: input.origin, ...input.query };
  const start = input.redirect
    ? await browse(jar, `${t.baseUrl}/v1/connect/profile`, {
        method: 'POST',
        form: { ...params, return_to: input.redirect.returnTo, client_state: input.redirect.clientState },
        headers: { origin: input.redirect.startedFrom ?? input.origin },
      })
    : await browse(jar, `${t.baseUrl}/v1/connect/profile?${new URLSearchParams(params)}`);
  assert.equal(start.status, 302, `connect start redirects to the provider: ${start.status} ${start.text.slice(0, 200)}`);
  const authorizeUrl = new URL(start.location!, t.baseUrl);
  const consent = await browse(jar, authorizeUrl.toString());
  assert.equal(consent.status, 200, consent.text.slice(0, 300));
  const consentForm = parseConsentForm(consent.text, t.baseUrl);
  const button = consentForm.buttons.get(input.button);
  assert.ok(button, `consent page has a "${input.button}" button (has: ${[...consentForm.buttons.keys()].join(', ')})`);
  const decided = await browse(jar, consentForm.action, { method: 'POST', form: { ...consentForm.hidden, [button.name]: button.value } });
  assert.equal(decided.status, 302, decided.text.slice(0, 300));
  const callbackUrl = new URL(decided.location!, t.baseUrl);
  rememberSecret(callbackUrl.searchParams.get('code'));
  await input.tamper?.(callbackUrl);
  const callback = await browse(jar, callbackUrl.toString());
  const result = popupResult(callback.text);
  return { jar, start, authorizeUrl, consent, consentForm, callbackUrl, callback, result };
}

/** What an organization needs to take profile applications: the settings switched on, and the license. */
export async function enableProfileApply(t: Pick<TestHost, 'request'>, apiKey: string, origins: string[], extra: Record<string, unknown> = {}): Promise<void> {
  const response = await t.request('PATCH', '/v1/organization/settings', {
    auth: apiKey,
    body: { profile_apply: { enabled: true, allowed_origins: origins, ...extra } },
  });
  assert.equal(response.status, 200, response.text);
  await licenseProfileApply(t, apiKey);
}

/** Activates `profile.accept_application` and waits until it is active. */
export async function licenseProfileApply(t: Pick<TestHost, 'request'>, apiKey: string): Promise<void> {
  const activated = await t.request('POST', '/v1/integrations/licenses/profile.accept_application/activate', { auth: apiKey });
  assert.ok(activated.status === 200 || activated.status === 202, activated.text);
  const license = await waitFor(async () => {
    const list = await t.request('GET', '/v1/integrations/licenses?action_key=profile.accept_application', { auth: apiKey });
    return list.body.data.find((l: { id: string; status: string }) => l.id === activated.body.id && l.status !== 'provisioning');
  }, 'the profile.accept_application license to settle');
  assert.equal(license.status, 'active', JSON.stringify(license));
}

/** How long past the deadline a check that has not answered yet is waited for. */
const UNANSWERED_CHECK_MS = 2_000;

/**
 * Checks `probe` every 50 ms until it returns a value (not undefined, null or false), and
 * returns it. Past `timeoutMs` it fails naming `what` (a function can add what it last saw);
 * so does a check that hangs, shortly after the deadline, rather than leaving the test to
 * mocha's timeout, which says nothing of what was awaited.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined>, what: string | (() => string), timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const waitingFor = () => (typeof what === 'string' ? what : what());
  for (;;) {
    let timer: NodeJS.Timeout | undefined;
    const unanswered = Symbol('unanswered');
    const hung = new Promise<typeof unanswered>((resolve) => {
      timer = setTimeout(() => resolve(unanswered), Math.max(0, deadline - Date.now()) + UNANSWERED_CHECK_MS);
    });
    const value = await Promise.race([probe(), hung]).finally(() => clearTimeout(timer));
    if (value === unanswered)
      throw new Error(`timed out waiting for ${waitingFor()} (a check did not answer within ${UNANSWERED_CHECK_MS} ms of the deadline)`);
    if (value !== undefined && value !== null && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${waitingFor()} (${timeoutMs} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const ADA = { id: 'usr_sbx7Ada2Lovelace', name: 'Ada Lovelace' };
export const GRACE = { id: 'usr_sbx4Grace9Hopper', name: 'Grace Hopper' };
export const ALAN = { id: 'usr_sbx2Alan5Turing', name: 'Alan Turing' };
export const KATHERINE = { id: 'usr_sbx9Katherine3Johnson', name: 'Katherine Johnson' };

export const QUESTIONS = [
  { key: 'years_experience', label: 'Years of experience', type: 'number', required: true },
  { key: 'work_authorization', label: 'Authorized to work?', type: 'boolean', required: true },
  { key: 'start_date', label: 'Start', type: 'select', required: false, options: ['Immediately', 'Within a month', 'Later'] },
  { key: 'portfolio', label: 'Portfolio link', type: 'text', required: false },
];
