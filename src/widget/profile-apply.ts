/**
 * <profile-apply organization-id="org_…" listing-id="listing_…" button-text="…" theme="light|dark|auto">
 *
 * The embeddable apply button (SPEC 4.5). Click → a popup to the service's connect flow →
 * the popup posts the candidate's session back (accepted only from the service's origin
 * and from that popup) → the listing's questions and a cover letter → submit with the
 * candidate token → the application id. When the browser blocks the popup, the candidate
 * may continue in the same tab (a form POST, so the service sees this page's Origin): the
 * flow comes back to this page with a single-use result code in the URL fragment, accepted
 * only with the nonce this element kept in sessionStorage and exchanged for the result. No
 * runtime dependencies; everything renders in a shadow root with DOM calls (never
 * innerHTML), so nothing from the API or the page is ever parsed as markup.
 *
 * Where the API lives (first that applies): the element's `api-base` attribute; the
 * script tag's `data-api-base`; the base URL the plugin stamps into the script it serves;
 * the script's own URL minus `/widgets/profile-apply.js`.
 */
import {
  attributeProblems,
  baseFromScriptUrl,
  coerceAnswers,
  COVER_LETTER_FIELD,
  DEFAULT_BUTTON_TEXT,
  errorMessage,
  fieldForParam,
  fieldMessage,
  MAX_COVER_LETTER,
  needsReauthorization,
  normalizeBase,
  originOf,
  resultFromFragment,
  THEMES,
  type Question,
  type Theme,
} from './logic';
import { CSS } from './styles';

/** Stamped by the plugin's widget router into the banner line of the served file. */
declare const PROFILE_APPLY_INJECTED_BASE: string | undefined;

const ELEMENT = 'profile-apply';
const MESSAGE_SOURCE = 'hiring-integrations';
const POPUP_WIDTH = 520;
const POPUP_HEIGHT = 720;

const currentScript =
  (document.currentScript as HTMLScriptElement | null) ?? document.querySelector<HTMLScriptElement>('script[src*="profile-apply"]');

function defaultBase(): string | undefined {
  const fromScript = currentScript?.dataset.apiBase ? normalizeBase(currentScript.dataset.apiBase) : undefined;
  if (fromScript) return fromScript;
  const injected = typeof PROFILE_APPLY_INJECTED_BASE === 'string' ? PROFILE_APPLY_INJECTED_BASE : '';
  if (injected && !injected.startsWith('__')) {
    const base = normalizeBase(injected);
    if (base) return base;
  }
  return currentScript?.src ? baseFromScriptUrl(currentScript.src) : undefined;
}
const DEFAULT_BASE = defaultBase();

interface PublicListing {
  id: string;
  title: string;
  organization: { id: string; name: string };
  questions: Question[];
  profile_apply?: { button_text?: string; theme?: string };
}

interface Candidate {
  name: string;
  headline: string;
  profileUrl: string;
}

interface Session {
  token: string;
  expiresAt: number;
  profileUserId: string;
  candidate: Candidate;
}

interface ApiError {
  status: number;
  code: string;
  message: string;
  param?: string;
  applicationId?: string;
}

type View =
  | { name: 'invalid'; problems: string[] }
  | { name: 'loading' }
  /** `blocked`: the popup was blocked; offer to continue in this tab. */
  | { name: 'idle'; blocked?: boolean }
  | { name: 'waiting' }
  | { name: 'form'; busy: boolean }
  | { name: 'done'; applicationId: string; duplicate: boolean; skills?: number; credentials?: number }
  | { name: 'unavailable'; code: string };

type MessageKind = 'info' | 'error' | 'ok';
type Child = Node | string | false | null | undefined;

function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, unknown> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value as EventListener);
    else if (key === 'className') el.className = String(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const httpUrl = (v: unknown): string | undefined => (isString(v) && /^https?:\/\//i.test(v) ? v : undefined);

function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

function parseQuestions(value: unknown): Question[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((q): q is Question => q && isString(q.key) && isString(q.label) && ['number', 'boolean', 'text', 'select'].includes(q.type))
    .map((q) => ({ key: q.key, label: q.label, type: q.type, required: q.required === true, options: Array.isArray(q.options) ? q.options.filter(isString) : undefined }));
}

const SVG = 'http://www.w3.org/2000/svg';

/** A person glyph, built with DOM calls (no innerHTML, so Trusted Types pages are fine). */
function logo(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [k, v] of [['width', '18'], ['height', '18'], ['viewBox', '0 0 24 24'], ['aria-hidden', 'true'], ['focusable', 'false']]) svg.setAttribute(k!, v!);
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', 'M12 2a5 5 0 1 1 0 10 5 5 0 0 1 0-10Zm0 12c5 0 9 2.2 9 5v3H3v-3c0-2.8 4-5 9-5Z');
  svg.append(path);
  return svg;
}

export class ProfileApplyElement extends HTMLElement {
  static readonly observedAttributes = ['organization-id', 'listing-id', 'button-text', 'theme', 'api-base'];

  private readonly root: ShadowRoot;
  private readonly frame: HTMLDivElement;
  private readonly body: HTMLDivElement;
  private readonly live: HTMLParagraphElement;
  private view: View = { name: 'loading' };
  private listing?: PublicListing;
  private listingFailed = false;
  private session?: Session;
  private values: Record<string, string> = {};
  private coverLetter = '';
  private fieldErrors: Record<string, string> = {};
  private popup?: Window | null;
  private pollTimer?: number;
  private generation = 0;
  private lastSubmit?: { body: string; key: string };
  private connected = false;

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    if ('adoptedStyleSheets' in this.root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      this.root.adoptedStyleSheets = [sheet];
    } else {
      this.root.append(h('style', {}, CSS));
    }
    this.body = h('div');
    this.live = h('p', { className: 'msg', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.frame = h('div', { className: 'r', part: 'container' }, this.body, this.live);
    this.root.append(this.frame);
  }

  connectedCallback(): void {
    if (this.connected) return;
    this.connected = true;
    window.addEventListener('message', this.onMessage);
    this.reset();
  }

  disconnectedCallback(): void {
    this.connected = false;
    window.removeEventListener('message', this.onMessage);
    this.stopWaiting(true);
    this.session = undefined;
  }

  attributeChangedCallback(name: string, oldValue: string | null, newValue: string | null): void {
    if (!this.connected || oldValue === newValue) return;
    if (name === 'theme') {
      if (this.view.name === 'invalid' || attributeProblems(this.attrs()).length > 0) this.reset();
      else this.applyTheme();
    } else if (name === 'button-text') {
      if (this.view.name === 'idle') this.render();
    } else {
      this.reset();
    }
  }

  // ---- configuration -------------------------------------------------------------

  private attrs() {
    return {
      organizationId: this.getAttribute('organization-id'),
      listingId: this.getAttribute('listing-id'),
      theme: this.getAttribute('theme'),
      apiBase: this.getAttribute('api-base'),
    };
  }

  private get organizationId(): string {
    return (this.getAttribute('organization-id') ?? '').trim();
  }

  private get listingId(): string {
    return (this.getAttribute('listing-id') ?? '').trim();
  }

  private get apiBase(): string | undefined {
    const attribute = this.getAttribute('api-base');
    return attribute !== null ? normalizeBase(attribute) : DEFAULT_BASE;
  }

  private get buttonText(): string {
    const attribute = (this.getAttribute('button-text') ?? '').trim();
    return attribute || this.listing?.profile_apply?.button_text?.trim() || DEFAULT_BUTTON_TEXT;
  }

  private get theme(): Theme {
    const attribute = this.getAttribute('theme');
    if (attribute && THEMES.includes(attribute as Theme)) return attribute as Theme;
    const fromSettings = this.listing?.profile_apply?.theme;
    return fromSettings && THEMES.includes(fromSettings as Theme) ? (fromSettings as Theme) : 'light';
  }

  private applyTheme(): void {
    this.frame.className = `r ${this.theme}`;
  }

  /** Back to the start: check attributes, forget the session, fetch the listing. */
  private reset(): void {
    this.generation++;
    this.stopWaiting(true);
    this.session = undefined;
    this.listing = undefined;
    this.listingFailed = false;
    this.values = {};
    this.coverLetter = '';
    this.fieldErrors = {};
    this.lastSubmit = undefined;
    this.setMessage('');
    const problems = attributeProblems(this.attrs());
    if (problems.length === 0 && !this.apiBase) problems.push('the service address is unknown; set the api-base attribute');
    if (problems.length > 0) {
      this.show({ name: 'invalid', problems });
      this.emit('error', { code: 'invalid_attributes', message: problems.join('; '), stage: 'attributes' });
      return;
    }
    this.show({ name: 'loading' });
    const returned = this.takeReturnedResult();
    void this.loadListing().then(() => returned && this.exchangeReturnedResult(returned));
  }

  private async loadListing(): Promise<boolean> {
    const generation = this.generation;
    const url = `${this.apiBase}/v1/public/organizations/${encodeURIComponent(this.organizationId)}/listings/${encodeURIComponent(this.listingId)}`;
    let result: { ok: true; data: any } | { ok: false; error: ApiError };
    try {
      result = await this.request('GET', url);
    } catch {
      result = { ok: false, error: { status: 0, code: 'network_error', message: '' } };
    }
    if (generation !== this.generation) return false;
    if (result.ok) {
      const data = result.data ?? {};
      this.listing = {
        id: String(data.id ?? this.listingId),
        title: isString(data.title) ? data.title : '',
        organization: { id: String(data.organization?.id ?? ''), name: isString(data.organization?.name) ? data.organization.name : '' },
        questions: parseQuestions(data.questions),
        profile_apply: data.profile_apply && typeof data.profile_apply === 'object' ? data.profile_apply : undefined,
      };
      this.listingFailed = false;
      this.applyTheme();
      if (this.view.name === 'loading') this.show({ name: 'idle' });
      else if (this.view.name === 'idle') this.render();
      return true;
    }
    const { error } = result;
    if (error.status === 404 || error.status === 410) {
      this.stopWaiting(true);
      this.show({ name: 'unavailable', code: 'listing_unavailable' });
      this.fail('listing', { ...error, code: 'listing_unavailable' }, false);
    } else {
      this.listingFailed = true;
      if (this.view.name === 'loading') this.show({ name: 'idle' });
      this.fail('listing', error, this.view.name === 'idle');
    }
    return false;
  }

  // ---- the connect popup ---------------------------------------------------------

  private startAuthorization = (): void => {
    const base = this.apiBase;
    if (!base) return;
    if (this.listingFailed) {
      // The listing could not be loaded (network, or a page on an origin the organization
      // does not allow): try again before opening a popup that would fail the same way.
      this.setMessage('Checking the listing…');
      void this.loadListing().then((ok) => ok && this.setMessage('Ready. Press the button again to continue.'));
      return;
    }
    const url = this.connectUrl(base);
    const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - POPUP_WIDTH) / 2));
    const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - POPUP_HEIGHT) / 3));
    let popup: Window | null = null;
    try {
      popup = window.open(url, `profile-apply-${this.listingId}`, `popup=yes,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`);
    } catch {
      popup = null;
    }
    if (!popup) {
      this.show({ name: 'idle', blocked: true });
      this.fail('authorize', { status: 0, code: 'popup_blocked', message: '' }, true);
      return;
    }
    this.popup = popup;
    this.setMessage('');
    this.show({ name: 'waiting' });
    this.setMessage('Waiting for you to authorize in the pop-up window…');
    let closedSince = 0;
    this.pollTimer = window.setInterval(() => {
      if (!this.popup || !this.popup.closed) return;
      // The callback page posts, then closes itself: give its message a moment to arrive.
      if (!closedSince) closedSince = Date.now();
      else if (Date.now() - closedSince >= 400) {
        this.stopWaiting(false);
        this.show({ name: 'idle' });
        this.setMessage(errorMessage('popup_closed'), 'error');
        this.emit('cancel', { reason: 'popup_closed' });
        this.focusPrimary();
      }
    }, 250);
  };

  private connectUrl(base: string, extra: Record<string, string> = {}): string {
    const params = new URLSearchParams({ organization_id: this.organizationId, listing_id: this.listingId, origin: location.origin, ...extra });
    return `${base}/v1/connect/profile?${params.toString()}`;
  }

  private get stateKey(): string {
    return `profile-apply:${this.organizationId}:${this.listingId}`;
  }

  /** The popup was blocked: the same flow in this tab, back to this page when done. */
  private continueInThisTab = (): void => {
    const base = this.apiBase;
    if (!base) return;
    const clientState = randomKey();
    try {
      sessionStorage.setItem(this.stateKey, clientState);
    } catch {
      this.fail('authorize', { status: 0, code: 'popup_blocked', message: '' }, true, 'This browser keeps no session storage here, so the sign-in cannot continue in this tab. Allow pop-ups for this site and try again.');
      return;
    }
    // A form POST, not a link: the browser sends this page's Origin, which the service checks
    // (together with return_to being a URL the organization registered) before it redirects.
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = `${base}/v1/connect/profile`;
    form.hidden = true;
    const fields = { organization_id: this.organizationId, listing_id: this.listingId, origin: location.origin, return_to: location.href.split('#')[0]!, client_state: clientState };
    for (const [name, value] of Object.entries(fields)) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.appendChild(input);
    }
    document.body.appendChild(form);
    form.submit();
  };

  /** Redirect mode, back on the page: trade the single-use code for the result (once, from this origin). */
  private async exchangeReturnedResult(returned: { code: string; clientState: string }): Promise<void> {
    const base = this.apiBase;
    if (!base) return;
    let data: unknown;
    try {
      const response = await fetch(`${base}/v1/connect/profile/result`, {
        method: 'POST',
        body: new URLSearchParams({ code: returned.code, client_state: returned.clientState }),
        credentials: 'omit',
      });
      data = await response.json();
      if (!response.ok) data = { source: MESSAGE_SOURCE, type: 'profile-apply:error', code: 'state_mismatch', message: '' };
    } catch {
      data = { source: MESSAGE_SOURCE, type: 'profile-apply:error', code: 'network_error', message: '' };
    }
    this.accept(data);
  }

  /**
   * Back from the flow in this tab: the result in the URL fragment, if it carries the nonce
   * this element stored before leaving (so no link can plant a result). Removed from the
   * address bar at once, so the candidate token stays out of history and bookmarks.
   */
  private takeReturnedResult(): { code: string; clientState: string } | undefined {
    const data = resultFromFragment(location.hash);
    if (!data || typeof data.code !== 'string') return undefined;
    let expected: string | null = null;
    try {
      expected = sessionStorage.getItem(this.stateKey);
    } catch {
      return undefined;
    }
    if (!expected || data.client_state !== expected) return undefined;
    sessionStorage.removeItem(this.stateKey);
    history.replaceState(history.state, '', location.pathname + location.search);
    return { code: data.code, clientState: expected };
  }

  private stopWaiting(closePopup: boolean): void {
    if (this.pollTimer !== undefined) window.clearInterval(this.pollTimer);
    this.pollTimer = undefined;
    if (closePopup && this.popup && !this.popup.closed) this.popup.close();
    this.popup = undefined;
  }

  private cancelWaiting = (): void => {
    this.stopWaiting(true);
    this.show({ name: 'idle' });
    this.setMessage('Cancelled. Your profile was not shared.');
    this.emit('cancel', { reason: 'user_cancelled' });
    this.focusPrimary();
  };

  private onMessage = (event: MessageEvent): void => {
    if (!this.popup || event.source !== this.popup) return;
    if (!this.apiBase || event.origin !== originOf(this.apiBase)) return;
    this.accept(event.data);
  };

  /** The connect flow's result, from the popup or from the URL fragment. */
  private accept(message: unknown): void {
    const data = message as Record<string, any> | null;
    if (!data || typeof data !== 'object' || data.source !== MESSAGE_SOURCE) return;
    if (data.type === 'profile-apply:authorized') {
      if (data.organization_id !== this.organizationId || data.listing_id !== this.listingId) return;
      if (!isString(data.candidate_token) || !isString(data.profile_user_id)) return;
      this.stopWaiting(false);
      const expires = Date.parse(String(data.expires_at));
      const candidate = data.candidate ?? {};
      this.session = {
        token: data.candidate_token,
        expiresAt: Number.isFinite(expires) ? expires : Date.now() + 15 * 60_000,
        profileUserId: data.profile_user_id,
        candidate: {
          name: isString(candidate.name) ? candidate.name : '',
          headline: isString(candidate.headline) ? candidate.headline : '',
          profileUrl: httpUrl(candidate.profile_url) ?? '',
        },
      };
      this.emit('authorized', {
        profileUserId: this.session.profileUserId,
        candidate: { ...this.session.candidate },
        expiresAt: new Date(this.session.expiresAt).toISOString(),
      });
      void this.openForm();
    } else if (data.type === 'profile-apply:error') {
      this.stopWaiting(false);
      const code = isString(data.code) ? data.code : 'provider_error';
      if (code === 'listing_unavailable' || code === 'integration_disabled' || code === 'license_required') {
        this.show({ name: 'unavailable', code });
        this.fail('authorize', { status: 0, code, message: isString(data.message) ? data.message : '' }, false);
      } else {
        this.show({ name: 'idle' });
        this.fail('authorize', { status: 0, code, message: isString(data.message) ? data.message : '' }, true);
      }
    }
  }

  // ---- the form ------------------------------------------------------------------

  private async openForm(): Promise<void> {
    if (!this.listing) {
      this.setMessage('Loading the application form…');
      this.show({ name: 'loading' });
      if (!(await this.loadListing()) || !this.session) return;
    }
    this.fieldErrors = {};
    this.show({ name: 'form', busy: false });
    this.setMessage('');
    this.root.querySelector<HTMLElement>('h3')?.focus();
  }

  private cancelForm = (): void => {
    this.session = undefined;
    this.fieldErrors = {};
    this.show({ name: 'idle' });
    this.setMessage('Cancelled. Nothing was submitted.');
    this.emit('cancel', { reason: 'form_cancelled' });
    this.focusPrimary();
  };

  private onSubmit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const session = this.session;
    const listing = this.listing;
    if (!session || !listing || (this.view.name === 'form' && this.view.busy)) return;
    if (Date.now() >= session.expiresAt) {
      this.expireSession({ status: 401, code: 'session_expired', message: '' });
      return;
    }
    const { answers, errors } = coerceAnswers(listing.questions, this.values, this.coverLetter);
    if (Object.keys(errors).length > 0) {
      this.fieldErrors = errors;
      this.show({ name: 'form', busy: false });
      this.setMessage(`Please check ${Object.keys(errors).length === 1 ? 'the highlighted answer' : 'the highlighted answers'}.`, 'error');
      this.focusFirstInvalid();
      return;
    }
    this.fieldErrors = {};
    const body = JSON.stringify({ profile_user_id: session.profileUserId, cover_letter: this.coverLetter, answers });
    if (!this.lastSubmit || this.lastSubmit.body !== body) this.lastSubmit = { body, key: randomKey() };
    this.show({ name: 'form', busy: true });
    this.setMessage('Submitting your application…');
    const generation = this.generation;
    let result: { ok: true; data: any } | { ok: false; error: ApiError };
    try {
      result = await this.request('POST', `${this.apiBase}/v1/opportunities/listings/${encodeURIComponent(this.listingId)}/applications/profile`, body, {
        Authorization: `Bearer ${session.token}`,
        'Idempotency-Key': this.lastSubmit.key,
      });
    } catch {
      result = { ok: false, error: { status: 0, code: 'network_error', message: '' } };
    }
    if (generation !== this.generation) return;
    if (result.ok) {
      const data = result.data ?? {};
      const applicationId = String(data.application_id ?? '');
      this.session = undefined;
      this.show({
        name: 'done',
        applicationId,
        duplicate: false,
        skills: Array.isArray(data.imported_skills) ? data.imported_skills.length : undefined,
        credentials: Array.isArray(data.imported_credentials) ? data.imported_credentials.length : undefined,
      });
      this.setMessage('Your application was submitted.', 'ok');
      this.emit('submitted', { applicationId, status: String(data.status ?? 'submitted'), profileUserId: session.profileUserId });
      this.root.querySelector<HTMLElement>('h3')?.focus();
      return;
    }
    this.handleSubmitError(result.error);
  };

  private handleSubmitError(error: ApiError): void {
    const listing = this.listing!;
    const field = error.status === 400 ? fieldForParam(error.param, listing.questions) : undefined;
    if (field) {
      this.fieldErrors = { [field]: fieldMessage(error.code) };
      this.show({ name: 'form', busy: false });
      this.fail('submit', error, false, 'Please check the highlighted answer.');
      this.focusFirstInvalid();
    } else if (error.code === 'duplicate_application') {
      this.session = undefined;
      this.show({ name: 'done', applicationId: error.applicationId ?? '', duplicate: true });
      this.fail('submit', error, false);
      this.root.querySelector<HTMLElement>('h3')?.focus();
    } else if (needsReauthorization(error.code, error.status)) {
      this.expireSession(error);
    } else if (['listing_closed', 'listing_unavailable', 'integration_disabled', 'license_required', 'resource_missing'].includes(error.code) || error.status === 404 || error.status === 410) {
      this.session = undefined;
      this.show({ name: 'unavailable', code: error.code });
      this.fail('submit', error, false);
    } else {
      this.show({ name: 'form', busy: false });
      this.fail('submit', error, false);
      this.root.querySelector<HTMLElement>('button[type=submit]')?.focus();
    }
  }

  private expireSession(error: ApiError): void {
    this.session = undefined;
    this.show({ name: 'idle' });
    this.fail('submit', error, false, errorMessage('profile_not_authorized', 401));
    this.focusPrimary();
  }

  // ---- HTTP ----------------------------------------------------------------------

  private async request(method: string, url: string, body?: string, headers: Record<string, string> = {}): Promise<{ ok: true; data: any } | { ok: false; error: ApiError }> {
    const response = await fetch(url, {
      method,
      mode: 'cors',
      credentials: 'omit',
      cache: 'no-store',
      headers: { Accept: 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body,
    });
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
        code: isString(e.code) ? e.code : `http_${response.status}`,
        message: isString(e.message) ? e.message : '',
        param: isString(e.param) ? e.param : undefined,
        applicationId: isString(e.application_id) ? e.application_id : undefined,
      },
    };
  }

  // ---- events and status ---------------------------------------------------------

  private emit(type: 'authorized' | 'submitted' | 'error' | 'cancel', detail: Record<string, unknown>): void {
    this.dispatchEvent(
      new CustomEvent(`profile-apply:${type}`, {
        bubbles: true,
        composed: true,
        detail: { organizationId: this.organizationId, listingId: this.listingId, ...detail },
      }),
    );
  }

  /** Shows an error to the candidate and tells the page. Never includes the token. */
  private fail(stage: string, error: ApiError, focusButton: boolean, text?: string): void {
    const message = text ?? errorMessage(error.code, error.status || undefined);
    this.setMessage(error.applicationId ? `${message} Reference: ${error.applicationId}` : message, 'error');
    const detail: Record<string, unknown> = { code: error.code, message, stage };
    if (error.status) detail.status = error.status;
    if (error.param) detail.param = error.param;
    if (error.applicationId) detail.applicationId = error.applicationId;
    this.emit('error', detail);
    if (focusButton) this.focusPrimary();
  }

  private setMessage(text: string, kind: MessageKind = 'info'): void {
    this.live.className = `msg ${kind === 'info' ? '' : kind}`.trim();
    this.live.textContent = text;
  }

  private focusPrimary(): void {
    this.root.querySelector<HTMLButtonElement>('button.primary')?.focus();
  }

  private focusFirstInvalid(): void {
    this.root.querySelector<HTMLElement>('input[aria-invalid=true],select[aria-invalid=true],textarea[aria-invalid=true]')?.focus();
  }

  // ---- rendering -----------------------------------------------------------------

  private show(view: View): void {
    this.view = view;
    this.render();
  }

  private render(): void {
    this.applyTheme();
    const view = this.view;
    this.setAttribute('data-state', view.name);
    let content: Node[];
    switch (view.name) {
      case 'invalid':
        content = [
          h('h3', {}, 'This apply button is not set up correctly'),
          h('ul', { className: 'sub' }, ...view.problems.map((p) => h('li', {}, p))),
        ];
        this.setMessage('');
        break;
      case 'loading':
        content = [this.primaryButton(true)];
        break;
      case 'idle':
        content = [
          this.primaryButton(false),
          view.blocked
            ? h('div', { className: 'actions' }, h('button', { type: 'button', className: 'secondary', onclick: this.continueInThisTab }, 'Continue in this tab'))
            : h('p', { className: 'hint' }, 'Share your verified skills, credentials and experience instead of a resume.'),
        ];
        break;
      case 'waiting':
        content = [
          h('h3', {}, 'Authorize in the pop-up window'),
          h('p', { className: 'sub' }, 'Choose what to share with your profile provider. This page updates when you are done.'),
          h(
            'div',
            { className: 'actions' },
            h('button', { type: 'button', className: 'secondary', onclick: () => this.popup?.focus() }, 'Show the window'),
            h('button', { type: 'button', className: 'secondary', onclick: this.cancelWaiting }, 'Cancel'),
          ),
        ];
        break;
      case 'form':
        content = [this.form(view.busy)];
        break;
      case 'done': {
        const title = view.duplicate ? 'You have already applied' : 'Application submitted';
        const shared =
          view.skills !== undefined
            ? `Shared from your profile: ${view.skills} skill${view.skills === 1 ? '' : 's'}, ${view.credentials ?? 0} credential${view.credentials === 1 ? '' : 's'} and your work history.`
            : '';
        content = [
          h(
            'div',
            { className: view.duplicate ? '' : 'done' },
            h('h3', { tabindex: '-1' }, title),
            h('p', {}, view.duplicate ? 'This listing already has your application; there is no need to apply again.' : `Thank you${this.listing?.title ? ` for applying to ${this.listing.title}` : ''}.`),
            shared && h('p', { className: 'sub' }, shared),
            view.applicationId && h('p', { className: 'sub' }, 'Reference: ', h('code', { 'data-application-id': view.applicationId }, view.applicationId)),
          ),
        ];
        break;
      }
      case 'unavailable':
        content = [h('h3', {}, 'Applications unavailable'), h('p', { className: 'sub' }, errorMessage(view.code))];
        break;
    }
    const brand = h('p', { className: 'brand' }, logo(), this.listing?.organization.name ? `Apply to ${this.listing.organization.name}` : 'Profile apply');
    this.body.replaceChildren(...(view.name === 'invalid' ? [] : [brand]), ...content);
  }

  private primaryButton(busy: boolean): HTMLButtonElement {
    return h(
      'button',
      { type: 'button', className: 'primary', onclick: this.startAuthorization, disabled: busy, 'aria-busy': busy ? 'true' : undefined },
      busy && h('span', { className: 'spin', 'aria-hidden': 'true' }),
      this.buttonText,
    );
  }

  private form(busy: boolean): HTMLFormElement {
    const listing = this.listing!;
    const candidate = this.session?.candidate ?? { name: '', headline: '', profileUrl: '' };
    const initials = candidate.name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join('') || '?';
    const fields = listing.questions.map((q) => this.field(q));
    const coverError = this.fieldErrors[COVER_LETTER_FIELD] ?? '';
    const cover = h('textarea', {
      id: 'f-cover',
      name: COVER_LETTER_FIELD,
      rows: '5',
      maxlength: String(MAX_COVER_LETTER),
      'aria-describedby': 'e-cover',
      'aria-invalid': coverError ? 'true' : undefined,
      oninput: (e: Event) => (this.coverLetter = (e.target as HTMLTextAreaElement).value),
    });
    cover.value = this.coverLetter;
    return h(
      'form',
      { novalidate: true, onsubmit: this.onSubmit, 'aria-labelledby': 'form-title', 'aria-busy': busy ? 'true' : undefined },
      h(
        'div',
        { className: 'who' },
        h('span', { className: 'avatar', 'aria-hidden': 'true' }, initials),
        h(
          'div',
          {},
          h('h3', { id: 'form-title', tabindex: '-1' }, candidate.name ? `Applying as ${candidate.name}` : 'Complete your application'),
          h(
            'p',
            { className: 'sub' },
            candidate.headline,
            candidate.headline && candidate.profileUrl ? ' · ' : '',
            candidate.profileUrl && h('a', { href: candidate.profileUrl, target: '_blank', rel: 'noopener noreferrer' }, 'View profile'),
          ),
        ),
      ),
      listing.title && h('p', { className: 'sub note' }, `${listing.title}. Questions marked `, h('span', { className: 'req', 'aria-hidden': 'true' }, '*'), ' are required.'),
      h(
        'fieldset',
        { className: 'field', disabled: busy },
        ...fields,
        h('div', { className: 'field' }, h('label', { for: 'f-cover' }, 'Cover letter (optional)'), cover, h('p', { className: 'err', id: 'e-cover' }, coverError)),
        h(
          'div',
          { className: 'actions' },
          h('button', { type: 'submit', className: 'primary' }, busy && h('span', { className: 'spin', 'aria-hidden': 'true' }), busy ? 'Submitting…' : 'Submit application'),
          h('button', { type: 'button', className: 'secondary', onclick: this.cancelForm }, 'Cancel'),
        ),
      ),
    );
  }

  private field(q: Question): HTMLElement {
    const id = `f-${q.key}`;
    const errorId = `e-${q.key}`;
    const error = this.fieldErrors[q.key] ?? '';
    const invalid = error ? 'true' : undefined;
    const required = q.required ? 'true' : undefined;
    const value = this.values[q.key] ?? '';
    const store = (e: Event) => {
      this.values[q.key] = (e.target as HTMLInputElement).value;
    };
    const mark = q.required && h('span', { className: 'req', 'aria-hidden': 'true' }, '*');
    const errorNode = h('p', { className: 'err', id: errorId }, error);
    if (q.type === 'boolean') {
      const radio = (v: string, text: string) => {
        const input = h('input', { type: 'radio', name: id, value: v, onchange: store, 'aria-invalid': invalid });
        input.checked = value === v;
        return h('label', {}, input, text);
      };
      return h(
        'fieldset',
        { className: 'field', role: 'radiogroup', 'aria-required': required, 'aria-invalid': invalid, 'aria-describedby': errorId, 'data-question': q.key },
        h('legend', {}, q.label, mark),
        h('div', { className: 'choices' }, radio('true', 'Yes'), radio('false', 'No')),
        errorNode,
      );
    }
    let control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    const common = { id, name: q.key, 'aria-required': required, 'aria-invalid': invalid, 'aria-describedby': errorId, 'data-question': q.key };
    if (q.type === 'select') {
      control = h(
        'select',
        { ...common, onchange: store },
        h('option', { value: '' }, 'Choose…'),
        ...(q.options ?? []).map((o) => h('option', { value: o }, o)),
      );
    } else if (q.type === 'number') {
      control = h('input', { ...common, type: 'text', inputmode: 'decimal', autocomplete: 'off', oninput: store });
    } else {
      control = h('textarea', { ...common, rows: '3', oninput: store });
    }
    control.value = value;
    return h('div', { className: 'field' }, h('label', { for: id }, q.label, mark), control, errorNode);
  }
}

if (!customElements.get(ELEMENT)) customElements.define(ELEMENT, ProfileApplyElement);

declare global {
  interface HTMLElementTagNameMap {
    'profile-apply': ProfileApplyElement;
  }
}
