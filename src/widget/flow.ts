/**
 * The apply flow as a state machine (the states are in state.ts): what the candidate's
 * clicks, the connect flow's messages and the service's answers do to the state. It owns
 * the listing, the session, the form and the popup; the element (profile-apply.ts) owns
 * the page-facing side and is reached through `FlowUi`: drawing, the status line, events
 * and focus. Members ending in `_` are the bundle's own (the build shortens their names).
 */
import { localError, parseListing, request, text, type ApiError, type PublicListing } from './api';
import { continueInThisTab, exchangeReturnedResult, MESSAGE_SOURCE, openPopup, takeReturnedResult, type ConnectIds } from './connect-flow';
import { FormState } from './form-state';
import { EMAIL_FIELD, fieldForParam, fieldMessage, listingUnavailable, needsReauthorization, originOf, type Message, type MessageKind } from './logic';
import { alreadyApplied, sessionFrom, submitted, type Session, type View } from './state';

export type EventType = 'authorized' | 'submitted' | 'error' | 'cancel';

export interface FlowUi {
  /** The API base (only called once the attributes are valid, so it is known). */
  base_(): string;
  ids_(): ConnectIds;
  /** The BCP 47 tag the widget renders in: sent with the application, so messages to the candidate use it. */
  lang_(): string;
  /** Settles once the candidate's words are there. */
  localeReady_(): Promise<void>;
  /** Draws the flow's current state. */
  render_(): void;
  /** The status line; no message empties it. */
  say_(message?: Message, kind?: MessageKind | 'ok'): void;
  /** Tells the candidate (unless `announce` is false) and the page about an error. */
  fail_(stage: string, error: ApiError, focusButton: boolean, override?: Message, announce?: boolean): void;
  emit_(type: EventType, detail: Record<string, unknown>): void;
  focus_(selector: string): void;
}

const HEADING = 'h3';
const PRIMARY = 'button.primary';

export class ApplyFlow {
  view_: View = { name: 'loading' };
  listing_?: PublicListing;
  session_?: Session;
  form_ = new FormState();
  readonly #ui: FlowUi;
  #listingFailed = false;
  #popup?: Window;
  #pollTimer?: number;
  /** Bumped by every reset: answers to a request made before it are dropped. */
  #generation = 0;

  constructor(ui: FlowUi) {
    this.#ui = ui;
  }

  show_(view: View): void {
    this.view_ = view;
    this.#ui.render_();
  }

  /** Forgets everything (the element's ids or base changed, or it left the page). */
  stop_(): void {
    this.#generation++;
    this.#stopWaiting(true);
    this.session_ = this.listing_ = undefined;
    this.#listingFailed = false;
    this.form_ = new FormState();
  }

  /** From the start: fetch the listing, and take a result the flow brought back to this page. */
  start_(): void {
    this.stop_();
    this.show_({ name: 'loading' });
    const returned = takeReturnedResult(this.#ui.ids_());
    void this.#loadListing().then(async () => returned && this.#accept(await exchangeReturnedResult(this.#ui.base_(), returned)));
  }

  async #loadListing(): Promise<boolean> {
    const generation = this.#generation;
    const { organization_id, listing_id } = this.#ui.ids_();
    const result = await request(
      'GET',
      `${this.#ui.base_()}/v1/public/organizations/${encodeURIComponent(organization_id)}/listings/${encodeURIComponent(listing_id)}`,
    );
    // The form and its messages appear in the candidate's language, never English first.
    await this.#ui.localeReady_();
    if (generation !== this.#generation) return false;
    if (result.ok) {
      this.listing_ = parseListing(result.data ?? {});
      this.#listingFailed = false;
      if (this.view_.name === 'loading') this.show_({ name: 'idle' });
      else if (this.view_.name === 'idle') this.#ui.render_();
      return true;
    }
    const { error } = result;
    if (error.status === 404 || error.status === 410 || error.status === 402) {
      // 402: the organization's applications are paused (billing); said neutrally.
      this.#stopWaiting(true);
      const code = error.status === 402 ? 'payment_required' : 'listing_unavailable';
      this.#unavailable('listing', { ...error, code }, code, false);
    } else {
      this.#listingFailed = true;
      if (this.view_.name === 'loading') this.show_({ name: 'idle' });
      this.#ui.fail_('listing', error, this.view_.name === 'idle');
    }
    return false;
  }

  // ---- the connect flow ----------------------------------------------------------

  authorize_ = (): void => {
    if (this.#listingFailed) {
      // The listing could not be loaded (network, or a page on an origin the organization
      // does not allow): try again before opening a popup that would fail the same way.
      this.#ui.say_({ key: 'checking_listing' });
      void this.#loadListing().then((ok) => ok && this.#ui.say_({ key: 'listing_ready' }));
      return;
    }
    const popup = openPopup(this.#ui.base_(), this.#ui.ids_());
    if (!popup) {
      this.show_({ name: 'idle', blocked: true });
      this.#ui.fail_('authorize', localError('popup_blocked'), true);
      return;
    }
    this.#popup = popup;
    this.show_({ name: 'waiting' });
    this.#ui.say_({ key: 'waiting_status' });
    let closedSince = 0;
    this.#pollTimer = window.setInterval(() => {
      if (!popup.closed) return;
      // The callback page posts, then closes itself: give its message a moment to arrive.
      if (!closedSince) closedSince = Date.now();
      else if (Date.now() - closedSince >= 400) this.#backToIdle(false, { key: 'popup_closed' }, 'error', 'popup_closed');
    }, 250);
  };

  continueHere_ = (): void => {
    if (!continueInThisTab(this.#ui.base_(), this.#ui.ids_())) this.#ui.fail_('authorize', localError('popup_blocked'), true, { key: 'no_storage' });
  };

  showWindow_ = (): void => this.#popup?.focus();
  cancelWaiting_ = (): void => this.#backToIdle(true, { key: 'cancelled_popup' }, 'info', 'user_cancelled');
  cancelForm_ = (): void => this.#backToIdle(false, { key: 'cancelled_form' }, 'info', 'form_cancelled');

  #stopWaiting(closePopup: boolean): void {
    window.clearInterval(this.#pollTimer);
    if (closePopup && this.#popup && !this.#popup.closed) this.#popup.close();
    this.#popup = this.#pollTimer = undefined;
  }

  /** Back to the button after the candidate left the flow: the status line says why, the page hears `cancel`. */
  #backToIdle(closePopup: boolean, message: Message, kind: MessageKind, reason: string): void {
    this.#stopWaiting(closePopup);
    this.session_ = undefined;
    this.form_.errors_ = {};
    this.show_({ name: 'idle' });
    this.#ui.say_(message, kind);
    this.#ui.emit_('cancel', { reason });
    this.#ui.focus_(PRIMARY);
  }

  /** A window message: only the popup's, only from the service's origin. */
  message_ = (event: MessageEvent): void => {
    if (this.#popup && event.source === this.#popup && event.origin === originOf(this.#ui.base_())) this.#accept(event.data);
  };

  /** The connect flow's result, from the popup or from the redirect's exchange. */
  #accept(message: unknown): void {
    const data = message as Record<string, any> | null;
    if (!data || typeof data !== 'object' || data.source !== MESSAGE_SOURCE) return;
    if (data.type === 'profile-apply:authorized') {
      const ids = this.#ui.ids_();
      const session = sessionFrom(data);
      if (data.organization_id !== ids.organization_id || data.listing_id !== ids.listing_id || !session) return;
      this.#stopWaiting(false);
      this.session_ = session;
      this.#ui.emit_('authorized', {
        profileUserId: session.profileUserId,
        candidate: { ...session.candidate },
        expiresAt: new Date(session.expiresAt).toISOString(),
      });
      const earlier = alreadyApplied(data.already_applied);
      if (earlier) {
        // Said once, before any form: the first application stands.
        this.session_ = undefined;
        this.show_(earlier);
        this.#ui.say_();
        this.#ui.fail_('authorize', { ...localError('duplicate_application'), applicationId: earlier.applicationId }, false, undefined, false);
        this.#ui.focus_(HEADING);
        return;
      }
      void this.#openForm();
    } else if (data.type === 'profile-apply:error') {
      this.#stopWaiting(false);
      const error = localError(text(data.code, 'provider_error'), text(data.message));
      if (listingUnavailable(error.code)) this.#unavailable('authorize', error, error.code);
      else {
        this.show_({ name: 'idle' });
        this.#ui.fail_('authorize', error, true);
      }
    }
  }

  // ---- the form ------------------------------------------------------------------

  async #openForm(): Promise<void> {
    if (!this.listing_) {
      this.#ui.say_({ key: 'loading_form' });
      this.show_({ name: 'loading' });
      if (!(await this.#loadListing()) || !this.session_) return;
    }
    this.form_.errors_ = {};
    // The provider's verified email, when it gave one: the candidate may change it.
    const email = this.session_?.candidate.email;
    if (email) this.form_.values_[EMAIL_FIELD] ??= email;
    this.show_({ name: 'form', busy: false });
    this.#ui.say_();
    this.#ui.focus_(HEADING);
  }

  submit_ = async (event: Event): Promise<void> => {
    event.preventDefault();
    const session = this.session_;
    const listing = this.listing_;
    if (!session || !listing || (this.view_.name === 'form' && this.view_.busy)) return;
    if (Date.now() >= session.expiresAt) return this.#expireSession({ status: 401, code: 'session_expired', message: '' });
    const submission = this.form_.submission_(session.profileUserId, listing.questions, this.#ui.lang_());
    if (typeof submission === 'number') return this.#formError({ key: 'check_answers', params: { count: submission } });
    this.show_({ name: 'form', busy: true });
    this.#ui.say_({ key: 'submitting_status' });
    const generation = this.#generation;
    const result = await request(
      'POST',
      `${this.#ui.base_()}/v1/opportunities/listings/${encodeURIComponent(this.#ui.ids_().listing_id)}/applications/profile`,
      submission.body,
      { Authorization: `Bearer ${session.token}`, 'Idempotency-Key': submission.key },
    );
    if (generation !== this.#generation) return;
    if (!result.ok) return this.#submitFailed(result.error);
    const data = result.data ?? {};
    const done = submitted(data);
    this.session_ = undefined;
    this.show_(done);
    this.#ui.say_({ key: 'submitted_status' }, 'ok');
    this.#ui.emit_('submitted', { applicationId: done.applicationId, status: String(data.status ?? 'submitted'), profileUserId: session.profileUserId });
    this.#ui.focus_(HEADING);
  };

  /** The form again with its field errors shown, `message` on the status line, focus on the first invalid field. */
  #formError(message: Message, error?: ApiError): void {
    this.show_({ name: 'form', busy: false });
    if (error) this.#ui.fail_('submit', error, false, message);
    else this.#ui.say_(message, 'error');
    this.#ui.focus_('[aria-invalid=true]:is(input,select,textarea)');
  }

  #submitFailed(error: ApiError): void {
    const field = error.status === 400 ? fieldForParam(error.param, this.listing_!.questions) : undefined;
    if (field) {
      this.form_.errors_ = { [field]: { key: fieldMessage(error.code) } };
      this.#formError({ key: 'check_answers', params: { count: 1 } }, error);
    } else if (error.code === 'duplicate_application') {
      // The done state says it (once); the status line stays quiet.
      this.session_ = undefined;
      this.show_({ name: 'done', applicationId: error.applicationId ?? '', duplicate: true });
      this.#ui.fail_('submit', error, false, undefined, false);
      this.#ui.focus_(HEADING);
    } else if (needsReauthorization(error.code, error.status)) {
      this.#expireSession(error);
    } else if (listingUnavailable(error.code, error.status)) {
      this.#unavailable('submit', error, error.status === 402 ? 'payment_required' : error.code);
    } else {
      this.show_({ name: 'form', busy: false });
      this.#ui.fail_('submit', error, false);
      this.#ui.focus_('button[type=submit]');
    }
  }

  #expireSession(error: ApiError): void {
    this.session_ = undefined;
    this.show_({ name: 'idle' });
    this.#ui.fail_('submit', error, true);
  }

  /** The listing cannot take applications (closed, paused, not licensed): said by the view, not the status line. */
  #unavailable(stage: string, error: ApiError, code: string, focus = true): void {
    this.session_ = undefined;
    this.show_({ name: 'unavailable', code });
    this.#ui.fail_(stage, error, false, undefined, false);
    if (focus) this.#ui.focus_(HEADING);
  }
}
