/**
 * <profile-apply organization-id="org_…" listing-id="listing_…" button-text="…" theme="light|dark|auto">
 *
 * The embeddable apply button (SPEC 4.5). Click → a popup to the service's connect flow →
 * the popup posts the candidate's session back (accepted only from the service's origin
 * and from that popup) → the listing's questions and a cover letter → submit with the
 * candidate token → the application id. When the browser blocks the popup, the candidate
 * may continue in the same tab. No runtime dependencies.
 *
 * The files: this one is the element (lifecycle, attributes, language, the status line,
 * events, focus); flow.ts the state machine over the states of state.ts; view.ts draws
 * each state with dom.ts's renderer (DOM calls, never innerHTML); connect-flow.ts the
 * popup and same-tab flow; api.ts the service's answers; form-state.ts the answers typed;
 * logic.ts the rules; i18n/ the words, one catalog per language; styles.ts the stylesheet.
 */
import type { ApiError } from './api';
import { defaultBase } from './base-url';
import { h } from './dom';
import { ApplyFlow, type EventType } from './flow';
import { Translator, type Negotiated } from './i18n/catalog';
import { en } from './i18n/en';
import { candidateLocale, translatorFor } from './i18n/load';
import {
  attributeProblems,
  COVER_LETTER_FIELD,
  DEFAULT_BUTTON_TEXT,
  errorMessage,
  normalizeBase,
  THEMES,
  type Message,
  type MessageKind,
  type Theme,
} from './logic';
import { CSS } from './styles';
import { renderView } from './view';

const DEFAULT_BASE = defaultBase();
const ENGLISH = new Translator('en', en);

class ProfileApplyElement extends HTMLElement {
  static readonly observedAttributes = ['organization-id', 'listing-id', 'button-text', 'theme', 'api-base', 'lang'];

  readonly #root: ShadowRoot;
  readonly #frame: HTMLDivElement;
  readonly #body: HTMLDivElement;
  readonly #live: HTMLParagraphElement;
  readonly #flow: ApplyFlow;
  /** The words in the candidate's language; English until its catalog has arrived. */
  #i18n = ENGLISH;
  #locale: Negotiated = { locale: 'en', tag: 'en' };
  #localeReady: Promise<void> = Promise.resolve();
  /** What the status line says, kept as a message so a change of language re-words it. */
  #status?: { message: Message; kind: MessageKind | 'ok' };
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
    this.#live = h('p', { class: 'msg', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    this.#frame = h('div', { class: 'r', part: 'container', lang: 'en', dir: 'ltr' }, this.#body, this.#live);
    this.#root.append(this.#frame);
    this.#flow = new ApplyFlow({
      base_: () => this.#apiBase!,
      ids_: () => ({ organization_id: this.#organizationId, listing_id: this.#listingId }),
      // The API takes tags up to 35 characters: a longer one (extensions) is sent as its language alone.
      lang_: (tag = this.#i18n.tag) => (tag.length > 35 ? tag.split('-')[0]! : tag),
      localeReady_: () => this.#localeReady,
      render_: () => this.#render(),
      say_: (message, kind) => this.#say(message, kind),
      fail_: (...args) => this.#fail(...args),
      emit_: (type, detail) => this.#emit(type, detail),
      focus_: (selector) => this.#root.querySelector<HTMLElement>(selector)?.focus(),
    });
  }

  connectedCallback(): void {
    if (this.#connected) return;
    this.#connected = true;
    window.addEventListener('message', this.#flow.message_);
    this.#reset();
  }

  disconnectedCallback(): void {
    this.#connected = false;
    window.removeEventListener('message', this.#flow.message_);
    this.#flow.stop_();
  }

  attributeChangedCallback(name: string, oldValue: string | null, newValue: string | null): void {
    if (!this.#connected || oldValue === newValue) return;
    if (name === 'theme') {
      if (this.#flow.view_.name === 'invalid' || attributeProblems(this.#attrs()).length > 0) this.#reset();
      else this.#applyTheme();
    } else if (name === 'button-text') {
      if (this.#flow.view_.name === 'idle') this.#render();
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
    const configured = this.#flow.listing_?.profile_apply?.button_text?.trim();
    if (attribute || (configured && configured !== DEFAULT_BUTTON_TEXT)) return attribute || configured!;
    return this.#i18n.t('button');
  }

  /** The `theme` attribute, else the organization's setting, else light. */
  #applyTheme(): void {
    const theme = [this.getAttribute('theme'), this.#flow.listing_?.profile_apply?.theme].find((t) => t && THEMES.includes(t as Theme)) ?? 'light';
    this.#frame.className = `r ${theme}`;
  }

  /** Switches to the candidate's language, fetching its catalog; re-renders in place once it is there. */
  async #applyLocale(): Promise<void> {
    const locale = candidateLocale(this);
    if (locale.tag === this.#locale.tag && locale.locale === this.#locale.locale) return;
    this.#locale = locale;
    const i18n = await translatorFor(this.#apiBase, locale);
    if (this.#locale !== locale) return;
    this.#i18n = i18n;
    this.#frame.setAttribute('lang', i18n.tag);
    this.#frame.setAttribute('dir', i18n.dir);
    if (this.#connected) {
      this.#render();
      if (this.#status) this.#say(this.#status.message, this.#status.kind);
    }
  }

  /** Back to the start: check the attributes, then the flow from the beginning. */
  #reset(): void {
    this.#flow.stop_();
    this.#say();
    this.#localeReady = this.#applyLocale();
    const problems = attributeProblems(this.#attrs());
    if (problems.length === 0 && !this.#apiBase) problems.push({ key: 'problem_no_base' });
    if (problems.length === 0) return this.#flow.start_();
    this.#flow.show_({ name: 'invalid', problems });
    // For the page's developer: English, whatever the candidate reads.
    this.#emit('error', { code: 'invalid_attributes', message: problems.map((p) => ENGLISH.t(p.key, p.params)).join('; '), stage: 'attributes' });
  }

  // ---- what the candidate and the page are told ----------------------------------

  #emit(type: EventType, detail: Record<string, unknown>): void {
    detail = { organizationId: this.#organizationId, listingId: this.#listingId, ...detail };
    this.dispatchEvent(new CustomEvent(`profile-apply:${type}`, { bubbles: true, composed: true, detail }));
  }

  /**
   * Shows an error to the candidate (neutral for their own choices and pauses; not at all
   * when `announce` is false because the view says it) and tells the page. Never includes the token.
   */
  #fail(stage: string, error: ApiError, focusButton: boolean, override?: Message, announce = true): void {
    const described = errorMessage(error.code, error.status || undefined);
    const message: Message = override ?? { key: described.key };
    if (announce) this.#say(message, override ? 'error' : described.kind);
    const detail: Record<string, unknown> = { code: error.code, message: this.#i18n.t(message.key, message.params), stage };
    for (const known of ['status', 'param', 'applicationId'] as const) if (error[known]) detail[known] = error[known];
    this.#emit('error', detail);
    if (focusButton) this.#root.querySelector<HTMLElement>('button.primary')?.focus();
  }

  /** The status line (a polite live region); no message empties it. */
  #say(message?: Message, kind: MessageKind | 'ok' = 'info'): void {
    this.#status = message ? { message, kind } : undefined;
    this.#live.className = `msg ${kind === 'info' ? '' : kind}`.trim();
    this.#live.textContent = message ? this.#i18n.t(message.key, message.params) : '';
  }

  /**
   * As the candidate edits a field that shows an error: once the value is valid, the error
   * goes (in place, so focus and caret stay), and with the last one the "please check" line.
   */
  #input = (field: string, value: string): void => {
    const form = this.#flow.form_;
    if (!form.input_(field, value, this.#flow.listing_?.questions ?? [])) return;
    const id = field === COVER_LETTER_FIELD ? 'cover' : field;
    this.#root.getElementById(`e-${id}`)!.textContent = '';
    for (const el of this.#root.querySelectorAll(`[aria-describedby="e-${id}"], [name="f-${id}"], [name="${field}"]`)) el.removeAttribute('aria-invalid');
    if (Object.keys(form.errors_).length === 0 && this.#status?.message.key === 'check_answers') this.#say();
  };

  #render(): void {
    const view = this.#flow.view_;
    this.#applyTheme();
    this.setAttribute('data-state', view.name);
    if (view.name === 'invalid') this.#say();
    this.#body.replaceChildren(...renderView(view, { i18n_: this.#i18n, buttonText_: this.#buttonText, flow_: this.#flow, input_: this.#input }));
  }
}

if (!customElements.get('profile-apply')) customElements.define('profile-apply', ProfileApplyElement);

declare global {
  interface HTMLElementTagNameMap {
    'profile-apply': ProfileApplyElement;
  }
}
