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
import { negotiate, Translator, type MessageKey, type Negotiated, type Params } from './i18n/catalog';
import { en } from './i18n/en';
import { loadCatalog } from './i18n/load';
import {
  attributeProblems,
  baseFromScriptUrl,
  coerceAnswers,
  COVER_LETTER_FIELD,
  DEFAULT_BUTTON_TEXT,
  errorMessage,
  fieldForParam,
  fieldMessage,
  listingUnavailable,
  MAX_COVER_LETTER,
  needsReauthorization,
  normalizeBase,
  originOf,
  resultFromFragment,
  THEMES,
  type Message,
  type MessageKind,
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

const currentScript = (document.currentScript as HTMLScriptElement | null) ?? document.querySelector<HTMLScriptElement>('script[src*="profile-apply"]');

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
const ENGLISH = new Translator('en', en);

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
  | { name: 'invalid'; problems: Message[] }
  | { name: 'loading' }
  /** `blocked`: the popup was blocked; offer to continue in this tab. */
  | { name: 'idle'; blocked?: boolean }
  | { name: 'waiting' }
  | { name: 'form'; busy: boolean }
  /** `duplicate`: the candidate had applied before (`appliedAt` when known); `workHistory`: experience was shared. */
  | { name: 'done'; applicationId: string; duplicate: boolean; appliedAt?: Date; skills?: number; credentials?: number; workHistory?: boolean }
  | { name: 'unavailable'; code: string };

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
    .map((q) => ({
      key: q.key,
      label: q.label,
      type: q.type,
      required: q.required === true,
      options: Array.isArray(q.options) ? q.options.filter(isString) : undefined,
    }));
}

const SVG = 'http://www.w3.org/2000/svg';

/** A person glyph, built with DOM calls (no innerHTML, so Trusted Types pages are fine). */
function logo(): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [k, v] of [
    ['width', '18'],
    ['height', '18'],
    ['viewBox', '0 0 24 24'],
    ['aria-hidden', 'true'],
    ['focusable', 'false'],
  ])
    svg.setAttribute(k!, v!);
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', 'M12 2a5 5 0 1 1 0 10 5 5 0 0 1 0-10Zm0 12c5 0 9 2.2 9 5v3H3v-3c0-2.8 4-5 9-5Z');
  svg.append(path);
  return svg;
}

export class ProfileApplyElement extends HTMLElement {
  static readonly observedAttributes = ['organization-id', 'listing-id', 'button-text', 'theme', 'api-base', 'lang'];

  readonly #root: ShadowRoot;
  readonly #frame: HTMLDivElement;
  readonly #body: HTMLDivElement;
  readonly #live: HTMLParagraphElement;
  #view: View = { name: 'loading' };
  #listing?: PublicListing;
  #listingFailed = false;
  #session?: Session;
  #values: Record<string, string> = {};
  #coverLetter = '';
  #fieldErrors: Record<string, Message> = {};
  /** The words in the candidate's language; English until its catalog has arrived. */
  #i18n = new Translator('en', en);
  #locale: Negotiated = { locale: 'en', tag: 'en' };
  #localeReady: Promise<void> = Promise.resolve();
  /** What the status line says, kept as a message so a change of language re-words it. */
  #status?: { message: Message; kind: MessageKind | 'ok' };
  #popup?: Window | null;
  #pollTimer?: number;
  #generation = 0;
  #lastSubmit?: { body: string; key: string };
  #connected = false;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    if ('adoptedStyleSheets' in this.#root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      this.#root.adoptedStyleSheets = [sheet];
    } else {
      this.#root.append(h('style', {}, CSS));
    }
    this.#body = h('div');
    this.#live = h('p', { className: 'msg', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.#frame = h('div', { className: 'r', part: 'container', lang: 'en', dir: 'ltr' }, this.#body, this.#live);
    this.#root.append(this.#frame);
  }

  connectedCallback(): void {
    if (this.#connected) return;
    this.#connected = true;
    window.addEventListener('message', this.#onMessage);
    this.#reset();
  }

  disconnectedCallback(): void {
    this.#connected = false;
    window.removeEventListener('message', this.#onMessage);
    this.#stopWaiting(true);
    this.#session = undefined;
  }

  attributeChangedCallback(name: string, oldValue: string | null, newValue: string | null): void {
    if (!this.#connected || oldValue === newValue) return;
    if (name === 'theme') {
      if (this.#view.name === 'invalid' || attributeProblems(this.#attrs()).length > 0) this.#reset();
      else this.#applyTheme();
    } else if (name === 'button-text') {
      if (this.#view.name === 'idle') this.#render();
    } else if (name === 'lang') {
      this.#localeReady = this.#applyLocale();
    } else {
      this.#reset();
    }
  }

  // ---- configuration -------------------------------------------------------------

  #attrs() {
    return {
      organizationId: this.getAttribute('organization-id'),
      listingId: this.getAttribute('listing-id'),
      theme: this.getAttribute('theme'),
      apiBase: this.getAttribute('api-base'),
    };
  }

  get #organizationId(): string {
    return (this.getAttribute('organization-id') ?? '').trim();
  }

  get #listingId(): string {
    return (this.getAttribute('listing-id') ?? '').trim();
  }

  get #apiBase(): string | undefined {
    const attribute = this.getAttribute('api-base');
    return attribute !== null ? normalizeBase(attribute) : DEFAULT_BASE;
  }

  get #buttonText(): string {
    const attribute = (this.getAttribute('button-text') ?? '').trim();
    // The organization's own label wins; the documented default is worded in the candidate's language.
    const configured = this.#listing?.profile_apply?.button_text?.trim();
    if (attribute || (configured && configured !== DEFAULT_BUTTON_TEXT)) return attribute || configured!;
    return this.#t('button');
  }

  get #theme(): Theme {
    const attribute = this.getAttribute('theme');
    if (attribute && THEMES.includes(attribute as Theme)) return attribute as Theme;
    const fromSettings = this.#listing?.profile_apply?.theme;
    return fromSettings && THEMES.includes(fromSettings as Theme) ? (fromSettings as Theme) : 'light';
  }

  #applyTheme(): void {
    this.#frame.className = `r ${this.#theme}`;
  }

  /** The element's `lang`, else the page's (the nearest `lang` up the tree), else the browser's languages. */
  #negotiateLocale(): Negotiated {
    return negotiate([
      this.closest('[lang]')?.getAttribute('lang'),
      document.documentElement.getAttribute('lang'),
      ...(navigator.languages ?? []),
      navigator.language,
    ]);
  }

  /** Switches to the candidate's language, fetching its catalog; re-renders in place once it is there. */
  async #applyLocale(): Promise<void> {
    const locale = this.#negotiateLocale();
    if (locale.tag === this.#locale.tag && locale.locale === this.#locale.locale) return;
    this.#locale = locale;
    const base = this.#apiBase;
    const catalog = base ? await loadCatalog(base, locale.locale) : en;
    if (this.#locale !== locale) return;
    // A catalog that could not be fetched leaves the words English: say so in lang too.
    const tag = catalog === en && locale.locale !== 'en' ? 'en' : locale.tag;
    this.#i18n = new Translator(tag, catalog);
    this.#frame.setAttribute('lang', tag);
    this.#frame.setAttribute('dir', this.#i18n.dir);
    if (this.#connected) {
      this.#render();
      if (this.#status) this.#setMessage(this.#status.message, this.#status.kind);
    }
  }

  #t(key: MessageKey, params?: Params): string {
    return this.#i18n.t(key, params);
  }

  /** Back to the start: check attributes, forget the session, fetch the listing. */
  #reset(): void {
    this.#generation++;
    this.#stopWaiting(true);
    this.#session = undefined;
    this.#listing = undefined;
    this.#listingFailed = false;
    this.#values = {};
    this.#coverLetter = '';
    this.#fieldErrors = {};
    this.#lastSubmit = undefined;
    this.#setMessage();
    this.#localeReady = this.#applyLocale();
    const problems = attributeProblems(this.#attrs());
    if (problems.length === 0 && !this.#apiBase) problems.push({ key: 'problem_no_base' });
    if (problems.length > 0) {
      this.#show({ name: 'invalid', problems });
      // For the page's developer: English, whatever the candidate reads.
      this.#emit('error', { code: 'invalid_attributes', message: problems.map((p) => ENGLISH.t(p.key, p.params)).join('; '), stage: 'attributes' });
      return;
    }
    this.#show({ name: 'loading' });
    const returned = this.#takeReturnedResult();
    void this.#loadListing().then(() => returned && this.#exchangeReturnedResult(returned));
  }

  async #loadListing(): Promise<boolean> {
    const generation = this.#generation;
    const url = `${this.#apiBase}/v1/public/organizations/${encodeURIComponent(this.#organizationId)}/listings/${encodeURIComponent(this.#listingId)}`;
    let result: { ok: true; data: any } | { ok: false; error: ApiError };
    try {
      result = await this.#request('GET', url);
    } catch {
      result = { ok: false, error: { status: 0, code: 'network_error', message: '' } };
    }
    // The form and its messages appear in the candidate's language, never English first.
    await this.#localeReady;
    if (generation !== this.#generation) return false;
    if (result.ok) {
      const data = result.data ?? {};
      this.#listing = {
        id: String(data.id ?? this.#listingId),
        title: isString(data.title) ? data.title : '',
        organization: { id: String(data.organization?.id ?? ''), name: isString(data.organization?.name) ? data.organization.name : '' },
        questions: parseQuestions(data.questions),
        profile_apply: data.profile_apply && typeof data.profile_apply === 'object' ? data.profile_apply : undefined,
      };
      this.#listingFailed = false;
      this.#applyTheme();
      if (this.#view.name === 'loading') this.#show({ name: 'idle' });
      else if (this.#view.name === 'idle') this.#render();
      return true;
    }
    const { error } = result;
    if (error.status === 404 || error.status === 410 || error.status === 402) {
      // 402: the organization's applications are paused (billing); said neutrally.
      const code = error.status === 402 ? 'payment_required' : 'listing_unavailable';
      this.#stopWaiting(true);
      this.#show({ name: 'unavailable', code });
      this.#fail('listing', { ...error, code }, false, undefined, false);
    } else {
      this.#listingFailed = true;
      if (this.#view.name === 'loading') this.#show({ name: 'idle' });
      this.#fail('listing', error, this.#view.name === 'idle');
    }
    return false;
  }

  // ---- the connect popup ---------------------------------------------------------

  #startAuthorization = (): void => {
    const base = this.#apiBase;
    if (!base) return;
    if (this.#listingFailed) {
      // The listing could not be loaded (network, or a page on an origin the organization
      // does not allow): try again before opening a popup that would fail the same way.
      this.#setMessage({ key: 'checking_listing' });
      void this.#loadListing().then((ok) => ok && this.#setMessage({ key: 'listing_ready' }));
      return;
    }
    const url = this.#connectUrl(base);
    const left = Math.max(0, Math.round(window.screenX + (window.outerWidth - POPUP_WIDTH) / 2));
    const top = Math.max(0, Math.round(window.screenY + (window.outerHeight - POPUP_HEIGHT) / 3));
    let popup: Window | null = null;
    try {
      popup = window.open(url, `profile-apply-${this.#listingId}`, `popup=yes,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`);
    } catch {
      popup = null;
    }
    if (!popup) {
      this.#show({ name: 'idle', blocked: true });
      this.#fail('authorize', { status: 0, code: 'popup_blocked', message: '' }, true);
      return;
    }
    this.#popup = popup;
    this.#show({ name: 'waiting' });
    this.#setMessage({ key: 'waiting_status' });
    let closedSince = 0;
    this.#pollTimer = window.setInterval(() => {
      if (!this.#popup || !this.#popup.closed) return;
      // The callback page posts, then closes itself: give its message a moment to arrive.
      if (!closedSince) closedSince = Date.now();
      else if (Date.now() - closedSince >= 400) {
        this.#stopWaiting(false);
        this.#show({ name: 'idle' });
        this.#setMessage({ key: 'popup_closed' }, 'error');
        this.#emit('cancel', { reason: 'popup_closed' });
        this.#focusPrimary();
      }
    }, 250);
  };

  #connectUrl(base: string, extra: Record<string, string> = {}): string {
    const params = new URLSearchParams({ organization_id: this.#organizationId, listing_id: this.#listingId, origin: location.origin, ...extra });
    return `${base}/v1/connect/profile?${params.toString()}`;
  }

  get #stateKey(): string {
    return `profile-apply:${this.#organizationId}:${this.#listingId}`;
  }

  /** The popup was blocked: the same flow in this tab, back to this page when done. */
  #continueInThisTab = (): void => {
    const base = this.#apiBase;
    if (!base) return;
    const clientState = randomKey();
    try {
      sessionStorage.setItem(this.#stateKey, clientState);
    } catch {
      this.#fail('authorize', { status: 0, code: 'popup_blocked', message: '' }, true, { key: 'no_storage' });
      return;
    }
    // A form POST, not a link: the browser sends this page's Origin, which the service checks
    // (together with return_to being a URL the organization registered) before it redirects.
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = `${base}/v1/connect/profile`;
    form.hidden = true;
    const fields = {
      organization_id: this.#organizationId,
      listing_id: this.#listingId,
      origin: location.origin,
      return_to: location.href.split('#')[0]!,
      client_state: clientState,
    };
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
  async #exchangeReturnedResult(returned: { code: string; clientState: string }): Promise<void> {
    const base = this.#apiBase;
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
    this.#accept(data);
  }

  /**
   * Back from the flow in this tab: the result in the URL fragment, if it carries the nonce
   * this element stored before leaving (so no link can plant a result). Removed from the
   * address bar at once, so the candidate token stays out of history and bookmarks.
   */
  #takeReturnedResult(): { code: string; clientState: string } | undefined {
    const data = resultFromFragment(location.hash);
    if (!data || typeof data.code !== 'string') return undefined;
    let expected: string | null = null;
    try {
      expected = sessionStorage.getItem(this.#stateKey);
    } catch {
      return undefined;
    }
    if (!expected || data.client_state !== expected) return undefined;
    sessionStorage.removeItem(this.#stateKey);
    history.replaceState(history.state, '', location.pathname + location.search);
    return { code: data.code, clientState: expected };
  }

  #stopWaiting(closePopup: boolean): void {
    if (this.#pollTimer !== undefined) window.clearInterval(this.#pollTimer);
    this.#pollTimer = undefined;
    if (closePopup && this.#popup && !this.#popup.closed) this.#popup.close();
    this.#popup = undefined;
  }

  #cancelWaiting = (): void => {
    this.#stopWaiting(true);
    this.#show({ name: 'idle' });
    this.#setMessage({ key: 'cancelled_popup' });
    this.#emit('cancel', { reason: 'user_cancelled' });
    this.#focusPrimary();
  };

  #onMessage = (event: MessageEvent): void => {
    if (!this.#popup || event.source !== this.#popup) return;
    if (!this.#apiBase || event.origin !== originOf(this.#apiBase)) return;
    this.#accept(event.data);
  };

  /** The connect flow's result, from the popup or from the URL fragment. */
  #accept(message: unknown): void {
    const data = message as Record<string, any> | null;
    if (!data || typeof data !== 'object' || data.source !== MESSAGE_SOURCE) return;
    if (data.type === 'profile-apply:authorized') {
      if (data.organization_id !== this.#organizationId || data.listing_id !== this.#listingId) return;
      if (!isString(data.candidate_token) || !isString(data.profile_user_id)) return;
      this.#stopWaiting(false);
      const expires = Date.parse(String(data.expires_at));
      const candidate = data.candidate ?? {};
      this.#session = {
        token: data.candidate_token,
        expiresAt: Number.isFinite(expires) ? expires : Date.now() + 15 * 60_000,
        profileUserId: data.profile_user_id,
        candidate: {
          name: isString(candidate.name) ? candidate.name : '',
          headline: isString(candidate.headline) ? candidate.headline : '',
          profileUrl: httpUrl(candidate.profile_url) ?? '',
        },
      };
      this.#emit('authorized', {
        profileUserId: this.#session.profileUserId,
        candidate: { ...this.#session.candidate },
        expiresAt: new Date(this.#session.expiresAt).toISOString(),
      });
      const earlier = data.already_applied;
      if (earlier && isString(earlier.application_id)) {
        // Said once, before any form: the first application stands.
        const appliedAt = new Date(String(earlier.applied_at));
        this.#session = undefined;
        this.#show({
          name: 'done',
          applicationId: earlier.application_id,
          duplicate: true,
          appliedAt: Number.isNaN(appliedAt.getTime()) ? undefined : appliedAt,
        });
        this.#setMessage();
        this.#fail('authorize', { status: 0, code: 'duplicate_application', message: '', applicationId: earlier.application_id }, false, undefined, false);
        this.#focusHeading();
        return;
      }
      void this.#openForm();
    } else if (data.type === 'profile-apply:error') {
      this.#stopWaiting(false);
      const code = isString(data.code) ? data.code : 'provider_error';
      if (listingUnavailable(code)) {
        this.#show({ name: 'unavailable', code });
        this.#fail('authorize', { status: 0, code, message: isString(data.message) ? data.message : '' }, false, undefined, false);
        this.#focusHeading();
      } else {
        this.#show({ name: 'idle' });
        this.#fail('authorize', { status: 0, code, message: isString(data.message) ? data.message : '' }, true);
      }
    }
  }

  // ---- the form ------------------------------------------------------------------

  async #openForm(): Promise<void> {
    if (!this.#listing) {
      this.#setMessage({ key: 'loading_form' });
      this.#show({ name: 'loading' });
      if (!(await this.#loadListing()) || !this.#session) return;
    }
    this.#fieldErrors = {};
    this.#show({ name: 'form', busy: false });
    this.#setMessage();
    this.#focusHeading();
  }

  #cancelForm = (): void => {
    this.#session = undefined;
    this.#fieldErrors = {};
    this.#show({ name: 'idle' });
    this.#setMessage({ key: 'cancelled_form' });
    this.#emit('cancel', { reason: 'form_cancelled' });
    this.#focusPrimary();
  };

  #onSubmit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const session = this.#session;
    const listing = this.#listing;
    if (!session || !listing || (this.#view.name === 'form' && this.#view.busy)) return;
    if (Date.now() >= session.expiresAt) {
      this.#expireSession({ status: 401, code: 'session_expired', message: '' });
      return;
    }
    const { answers, errors } = coerceAnswers(listing.questions, this.#values, this.#coverLetter);
    if (Object.keys(errors).length > 0) {
      this.#fieldErrors = errors;
      this.#show({ name: 'form', busy: false });
      this.#setMessage({ key: 'check_answers', params: { count: Object.keys(errors).length } }, 'error');
      this.#focusFirstInvalid();
      return;
    }
    this.#fieldErrors = {};
    const body = JSON.stringify({ profile_user_id: session.profileUserId, cover_letter: this.#coverLetter, answers });
    if (!this.#lastSubmit || this.#lastSubmit.body !== body) this.#lastSubmit = { body, key: randomKey() };
    this.#show({ name: 'form', busy: true });
    this.#setMessage({ key: 'submitting_status' });
    const generation = this.#generation;
    let result: { ok: true; data: any } | { ok: false; error: ApiError };
    try {
      result = await this.#request('POST', `${this.#apiBase}/v1/opportunities/listings/${encodeURIComponent(this.#listingId)}/applications/profile`, body, {
        Authorization: `Bearer ${session.token}`,
        'Idempotency-Key': this.#lastSubmit.key,
      });
    } catch {
      result = { ok: false, error: { status: 0, code: 'network_error', message: '' } };
    }
    if (generation !== this.#generation) return;
    if (result.ok) {
      const data = result.data ?? {};
      const applicationId = String(data.application_id ?? '');
      const experience = data.experience_summary ?? {};
      this.#session = undefined;
      this.#show({
        name: 'done',
        applicationId,
        duplicate: false,
        skills: Array.isArray(data.imported_skills) ? data.imported_skills.length : undefined,
        credentials: Array.isArray(data.imported_credentials) ? data.imported_credentials.length : undefined,
        workHistory: Number(experience.total_years) > 0 || isString(experience.current_title),
      });
      this.#setMessage({ key: 'submitted_status' }, 'ok');
      this.#emit('submitted', { applicationId, status: String(data.status ?? 'submitted'), profileUserId: session.profileUserId });
      this.#focusHeading();
      return;
    }
    this.#handleSubmitError(result.error);
  };

  #handleSubmitError(error: ApiError): void {
    const listing = this.#listing!;
    const field = error.status === 400 ? fieldForParam(error.param, listing.questions) : undefined;
    if (field) {
      this.#fieldErrors = { [field]: { key: fieldMessage(error.code) } };
      this.#show({ name: 'form', busy: false });
      this.#fail('submit', error, false, { key: 'check_answers', params: { count: 1 } });
      this.#focusFirstInvalid();
    } else if (error.code === 'duplicate_application') {
      // The done state says it (once); the status line stays quiet.
      this.#session = undefined;
      this.#show({ name: 'done', applicationId: error.applicationId ?? '', duplicate: true });
      this.#fail('submit', error, false, undefined, false);
      this.#focusHeading();
    } else if (needsReauthorization(error.code, error.status)) {
      this.#expireSession(error);
    } else if (listingUnavailable(error.code, error.status)) {
      this.#session = undefined;
      this.#show({ name: 'unavailable', code: error.code === 'payment_required' || error.status === 402 ? 'payment_required' : error.code });
      this.#fail('submit', error, false, undefined, false);
      this.#focusHeading();
    } else {
      this.#show({ name: 'form', busy: false });
      this.#fail('submit', error, false);
      this.#root.querySelector<HTMLElement>('button[type=submit]')?.focus();
    }
  }

  #expireSession(error: ApiError): void {
    this.#session = undefined;
    this.#show({ name: 'idle' });
    this.#fail('submit', error, false);
    this.#focusPrimary();
  }

  // ---- HTTP ----------------------------------------------------------------------

  async #request(
    method: string,
    url: string,
    body?: string,
    headers: Record<string, string> = {},
  ): Promise<{ ok: true; data: any } | { ok: false; error: ApiError }> {
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

  #emit(type: 'authorized' | 'submitted' | 'error' | 'cancel', detail: Record<string, unknown>): void {
    this.dispatchEvent(
      new CustomEvent(`profile-apply:${type}`, {
        bubbles: true,
        composed: true,
        detail: { organizationId: this.#organizationId, listingId: this.#listingId, ...detail },
      }),
    );
  }

  /**
   * Shows an error to the candidate (neutral for their own choices and pauses; not at all
   * when `announce` is false because the view says it) and tells the page. Never includes the token.
   */
  #fail(stage: string, error: ApiError, focusButton: boolean, override?: Message, announce = true): void {
    const described = errorMessage(error.code, error.status || undefined);
    const message: Message = override ?? { key: described.key };
    if (announce) this.#setMessage(message, override ? 'error' : described.kind);
    const detail: Record<string, unknown> = { code: error.code, message: this.#t(message.key, message.params), stage };
    if (error.status) detail.status = error.status;
    if (error.param) detail.param = error.param;
    if (error.applicationId) detail.applicationId = error.applicationId;
    this.#emit('error', detail);
    if (focusButton) this.#focusPrimary();
  }

  /** The status line (a polite live region); no message empties it. */
  #setMessage(message?: Message, kind: MessageKind | 'ok' = 'info'): void {
    this.#status = message ? { message, kind } : undefined;
    this.#live.className = `msg ${kind === 'info' ? '' : kind}`.trim();
    this.#live.textContent = message ? this.#t(message.key, message.params) : '';
  }

  #focusHeading(): void {
    this.#root.querySelector<HTMLElement>('h3')?.focus();
  }

  #focusPrimary(): void {
    this.#root.querySelector<HTMLButtonElement>('button.primary')?.focus();
  }

  #focusFirstInvalid(): void {
    this.#root.querySelector<HTMLElement>('input[aria-invalid=true],select[aria-invalid=true],textarea[aria-invalid=true]')?.focus();
  }

  // ---- rendering -----------------------------------------------------------------

  #show(view: View): void {
    this.#view = view;
    this.#render();
  }

  #render(): void {
    this.#applyTheme();
    const view = this.#view;
    this.setAttribute('data-state', view.name);
    let content: Node[];
    switch (view.name) {
      case 'invalid':
        content = [h('h3', {}, this.#t('invalid_title')), h('ul', { className: 'sub' }, ...view.problems.map((p) => h('li', {}, this.#t(p.key, p.params))))];
        this.#setMessage();
        break;
      case 'loading':
        // No words yet (the candidate's language may still be on its way): a spinner the button's size.
        content = [h('div', { className: 'wait' }, h('span', { className: 'spin', 'aria-hidden': 'true' }))];
        break;
      case 'idle':
        content = [
          this.#primaryButton(),
          view.blocked
            ? h(
                'div',
                { className: 'actions' },
                h('button', { type: 'button', className: 'secondary', onclick: this.#continueInThisTab }, this.#t('continue_here')),
              )
            : h('p', { className: 'hint' }, this.#t('hint')),
        ];
        break;
      case 'waiting':
        content = [
          h('h3', {}, this.#t('waiting_title')),
          h('p', { className: 'sub' }, this.#t('waiting_text')),
          h(
            'div',
            { className: 'actions' },
            h('button', { type: 'button', className: 'secondary', onclick: () => this.#popup?.focus() }, this.#t('show_window')),
            h('button', { type: 'button', className: 'secondary', onclick: this.#cancelWaiting }, this.#t('cancel')),
          ),
        ];
        break;
      case 'form':
        content = [this.#form(view.busy)];
        break;
      case 'done':
        content = [this.#done(view)];
        break;
      case 'unavailable': {
        const paused = view.code === 'payment_required';
        content = [
          h('h3', { tabindex: '-1' }, this.#t(paused ? 'paused_title' : 'unavailable_title')),
          h('p', { className: 'sub' }, this.#t(errorMessage(view.code).key)),
        ];
        break;
      }
    }
    const organization = this.#listing?.organization.name;
    const brand = h('p', { className: 'brand' }, logo(), organization ? this.#t('brand_organization', { organization }) : this.#t('brand'));
    this.#body.replaceChildren(...(view.name === 'invalid' ? [] : [brand]), ...content);
  }

  /** A message whose `{id}` placeholder is the application id, in a `<code>`. */
  #reference(applicationId: string): HTMLParagraphElement {
    const parts = this.#i18n
      .parts('reference', {}, ['id'])
      .map((part) => (typeof part === 'string' ? part : h('code', { 'data-application-id': applicationId }, applicationId)));
    return h('p', { className: 'sub' }, ...parts);
  }

  #done(view: Extract<View, { name: 'done' }>): HTMLElement {
    if (view.duplicate) {
      // Information, not an error: the first application stands.
      return h(
        'div',
        {},
        h('h3', { tabindex: '-1' }, this.#t('already_title')),
        h('p', {}, view.appliedAt ? this.#t('already_on', { date: view.appliedAt }) : this.#t('already')),
        view.applicationId && this.#reference(view.applicationId),
      );
    }
    // Only what was shared, counted in the candidate's language: never "0 credentials".
    const items: string[] = [];
    if (view.skills) items.push(this.#t('skills', { count: view.skills }));
    if (view.credentials) items.push(this.#t('credentials', { count: view.credentials }));
    if (view.workHistory) items.push(this.#t('work_history'));
    const title = this.#listing?.title;
    return h(
      'div',
      { className: 'done' },
      h('h3', { tabindex: '-1' }, this.#t('submitted_title')),
      h('p', {}, title ? this.#t('thanks_listing', { title }) : this.#t('thanks')),
      items.length > 0 && h('p', { className: 'sub' }, this.#t('shared', { items: this.#i18n.list(items) })),
      view.applicationId && this.#reference(view.applicationId),
    );
  }

  #primaryButton(): HTMLButtonElement {
    return h('button', { type: 'button', className: 'primary', onclick: this.#startAuthorization }, this.#buttonText);
  }

  #errorText(field: string): string {
    const error = this.#fieldErrors[field];
    return error ? this.#t(error.key, error.params) : '';
  }

  /**
   * As the candidate edits a field that shows an error: once the value is valid, the error
   * goes (in place, so focus and caret stay), and with the last one the "please check" line.
   */
  #revalidate(field: string): void {
    if (!this.#fieldErrors[field] || !this.#listing) return;
    const questions = this.#listing.questions.filter((q) => q.key === field);
    const { errors } = coerceAnswers(questions, this.#values, field === COVER_LETTER_FIELD ? this.#coverLetter : '');
    if (errors[field]) return;
    delete this.#fieldErrors[field];
    const id = field === COVER_LETTER_FIELD ? 'cover' : field;
    this.#root.getElementById(`e-${id}`)!.textContent = '';
    for (const el of this.#root.querySelectorAll(`[aria-describedby="e-${id}"], [name="f-${id}"], [name="${field}"]`)) el.removeAttribute('aria-invalid');
    if (Object.keys(this.#fieldErrors).length === 0 && this.#status?.message.key === 'check_answers') this.#setMessage();
  }

  #form(busy: boolean): HTMLFormElement {
    const listing = this.#listing!;
    const candidate = this.#session?.candidate ?? { name: '', headline: '', profileUrl: '' };
    const initials =
      candidate.name
        .split(/\s+/)
        .filter(Boolean)
        .slice(0, 2)
        .map((w) => w[0]!.toUpperCase())
        .join('') || '?';
    const fields = listing.questions.map((q) => this.#field(q));
    const coverError = this.#errorText(COVER_LETTER_FIELD);
    const cover = h('textarea', {
      id: 'f-cover',
      name: COVER_LETTER_FIELD,
      rows: '5',
      maxlength: String(MAX_COVER_LETTER),
      'aria-describedby': 'e-cover',
      'aria-invalid': coverError ? 'true' : undefined,
      oninput: (e: Event) => {
        this.#coverLetter = (e.target as HTMLTextAreaElement).value;
        this.#revalidate(COVER_LETTER_FIELD);
      },
    });
    cover.value = this.#coverLetter;
    return h(
      'form',
      { novalidate: true, onsubmit: this.#onSubmit, 'aria-labelledby': 'form-title', 'aria-busy': busy ? 'true' : undefined },
      h(
        'div',
        { className: 'who' },
        h('span', { className: 'avatar', 'aria-hidden': 'true' }, initials),
        h(
          'div',
          {},
          h('h3', { id: 'form-title', tabindex: '-1' }, candidate.name ? this.#t('applying_as', { name: candidate.name }) : this.#t('complete_application')),
          h(
            'p',
            { className: 'sub' },
            candidate.headline,
            candidate.headline && candidate.profileUrl ? ' · ' : '',
            candidate.profileUrl && h('a', { href: candidate.profileUrl, target: '_blank', rel: 'noopener noreferrer' }, this.#t('view_profile')),
          ),
        ),
      ),
      listing.questions.some((q) => q.required) &&
        h('p', { className: 'sub note' }, listing.title ? this.#t('form_note', { title: listing.title }) : this.#t('required_note')),
      h(
        'fieldset',
        { className: 'field', disabled: busy },
        ...fields,
        h(
          'div',
          { className: 'field' },
          h('label', { for: 'f-cover' }, this.#t('cover_letter')),
          cover,
          h('p', { className: 'err', id: 'e-cover' }, coverError),
        ),
        h(
          'div',
          { className: 'actions' },
          h(
            'button',
            { type: 'submit', className: 'primary' },
            busy && h('span', { className: 'spin', 'aria-hidden': 'true' }),
            busy ? this.#t('submitting') : this.#t('submit'),
          ),
          h('button', { type: 'button', className: 'secondary', onclick: this.#cancelForm }, this.#t('cancel')),
        ),
      ),
    );
  }

  #field(q: Question): HTMLElement {
    const id = `f-${q.key}`;
    const errorId = `e-${q.key}`;
    const error = this.#errorText(q.key);
    const invalid = error ? 'true' : undefined;
    const required = q.required ? 'true' : undefined;
    const value = this.#values[q.key] ?? '';
    const store = (e: Event) => {
      this.#values[q.key] = (e.target as HTMLInputElement).value;
      this.#revalidate(q.key);
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
        h('legend', {}, h('bdi', {}, q.label), mark),
        h('div', { className: 'choices' }, radio('true', this.#t('yes')), radio('false', this.#t('no'))),
        errorNode,
      );
    }
    let control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    const common = { id, name: q.key, 'aria-required': required, 'aria-invalid': invalid, 'aria-describedby': errorId, 'data-question': q.key };
    if (q.type === 'select') {
      control = h(
        'select',
        { ...common, onchange: store },
        h('option', { value: '' }, this.#t('choose')),
        ...(q.options ?? []).map((o) => h('option', { value: o }, o)),
      );
    } else if (q.type === 'number') {
      control = h('input', { ...common, type: 'text', inputmode: 'decimal', autocomplete: 'off', oninput: store });
    } else {
      control = h('textarea', { ...common, rows: '3', oninput: store });
    }
    control.value = value;
    // <bdi>: the organization's words keep their own direction inside a right-to-left card.
    return h('div', { className: 'field' }, h('label', { for: id }, h('bdi', {}, q.label), mark), control, errorNode);
  }
}

if (!customElements.get(ELEMENT)) customElements.define(ELEMENT, ProfileApplyElement);

declare global {
  interface HTMLElementTagNameMap {
    'profile-apply': ProfileApplyElement;
  }
}
