/**
 * What each state looks like: pure functions from the state (and the words in the
 * candidate's language) to DOM nodes. The flow (flow.ts) owns the state and handles the
 * clicks; nothing here keeps anything between renders.
 */
import { h, logo } from './dom';
import type { MessageKey, Params, Translator } from './i18n/catalog';
import { COVER_LETTER_FIELD, EMAIL_FIELD, errorMessage, MAX_COVER_LETTER, PHONE_FIELD, type FieldType, type Question } from './logic';
import type { ApplyFlow } from './flow';
import type { DoneView, View } from './state';

/** What a state is drawn from. Members ending in `_` are the bundle's own (the build shortens their names). */
export interface ViewContext {
  i18n_: Translator;
  buttonText_: string;
  /** The state and the handlers of the candidate's clicks. */
  flow_: ApplyFlow;
  /** A field's new value (the cover letter's is `COVER_LETTER_FIELD`). */
  input_(field: string, value: string): void;
}

type T = (key: MessageKey, params?: Params) => string;

/** The card's content for a state: the brand line (not in the setup-problem box), then the state's own nodes. */
export function renderView(view: View, c: ViewContext): Node[] {
  const t: T = (key, params) => c.i18n_.t(key, params);
  const secondary = (onclick: () => void, key: MessageKey) => h('button', { type: 'button', class: 'secondary', onclick }, t(key));
  let content: Node[];
  switch (view.name) {
    case 'invalid':
      return [h('h3', {}, t('invalid_title')), h('ul', { class: 'sub' }, ...view.problems.map((p) => h('li', {}, t(p.key, p.params))))];
    case 'loading':
      // No words yet (the candidate's language may still be on its way): a spinner the button's size.
      content = [h('div', { class: 'wait' }, h('span', { class: 'spin', 'aria-hidden': 'true' }))];
      break;
    case 'idle':
      content = [
        h('button', { type: 'button', class: 'primary', onclick: c.flow_.authorize_ }, c.buttonText_),
        view.blocked ? h('div', { class: 'actions' }, secondary(c.flow_.continueHere_, 'continue_here')) : h('p', { class: 'hint' }, t('hint')),
      ];
      // Before consent: what the organization will check.
      if (c.flow_.listing_?.checks.length) content.push(h('p', { class: 'hint' }, t('checks', { items: c.i18n_.list(c.flow_.listing_.checks) })));
      break;
    case 'waiting':
      content = [
        h('h3', {}, t('waiting_title')),
        h('p', { class: 'sub' }, t('waiting_text')),
        h('div', { class: 'actions' }, secondary(c.flow_.showWindow_, 'show_window'), secondary(c.flow_.cancelWaiting_, 'cancel')),
      ];
      break;
    case 'form':
      content = [form(c, t, view.busy, secondary(c.flow_.cancelForm_, 'cancel'))];
      break;
    case 'done':
      content = [done(c, t, view)];
      break;
    case 'unavailable':
      content = [
        h('h3', { tabindex: '-1' }, t(view.code === 'payment_required' ? 'paused_title' : 'unavailable_title')),
        h('p', { class: 'sub' }, t(errorMessage(view.code).key)),
      ];
  }
  const organization = c.flow_.listing_?.organizationName;
  return [h('p', { class: 'brand' }, logo(), organization ? t('brand_organization', { organization }) : t('brand')), ...content];
}

function done(c: ViewContext, t: T, view: DoneView): HTMLElement {
  // A message whose `{id}` placeholder is the application id, in a `<code>`.
  const reference = (id: string) =>
    id &&
    h(
      'p',
      { class: 'sub' },
      ...c.i18n_.parts('reference', {}, ['id']).map((part) => (typeof part === 'string' ? part : h('code', { 'data-application-id': id }, id))),
    );
  if (view.duplicate) {
    // Information, not an error: the first application stands.
    return h(
      'div',
      {},
      h('h3', { tabindex: '-1' }, t('already_title')),
      h('p', {}, view.appliedAt ? t('already_on', { date: view.appliedAt }) : t('already')),
      reference(view.applicationId),
    );
  }
  // Only what was shared, counted in the candidate's language: never "0 credentials".
  const items: string[] = [];
  if (view.skills) items.push(t('skills', { count: view.skills }));
  if (view.credentials) items.push(t('credentials', { count: view.credentials }));
  if (view.workHistory) items.push(t('work_history'));
  const title = c.flow_.listing_?.title;
  return h(
    'div',
    { class: 'done' },
    h('h3', { tabindex: '-1' }, t('submitted_title')),
    h('p', {}, title ? t('thanks_listing', { title }) : t('thanks')),
    items.length > 0 && h('p', { class: 'sub' }, t('shared', { items: c.i18n_.list(items) })),
    reference(view.applicationId),
  );
}

function form(c: ViewContext, t: T, busy: boolean, cancel: HTMLButtonElement): HTMLFormElement {
  const listing = c.flow_.listing_!;
  const candidate = c.flow_.session_?.candidate ?? { name: '', headline: '', profileUrl: '' };
  const initials =
    candidate.name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?';
  const coverError = errorText(c, t, COVER_LETTER_FIELD);
  const cover = h('textarea', {
    id: 'f-cover',
    name: COVER_LETTER_FIELD,
    rows: '5',
    maxlength: String(MAX_COVER_LETTER),
    'aria-describedby': 'e-cover',
    'aria-invalid': coverError ? 'true' : undefined,
    oninput: (e: Event) => c.input_(COVER_LETTER_FIELD, (e.target as HTMLTextAreaElement).value),
  });
  cover.value = c.flow_.form_.coverLetter_;
  return h(
    'form',
    { novalidate: true, onsubmit: c.flow_.submit_, 'aria-labelledby': 'form-title', 'aria-busy': busy ? 'true' : undefined },
    h(
      'div',
      { class: 'who' },
      h('span', { class: 'avatar', 'aria-hidden': 'true' }, initials),
      h(
        'div',
        {},
        h('h3', { id: 'form-title', tabindex: '-1' }, candidate.name ? t('applying_as', { name: candidate.name }) : t('complete_application')),
        h(
          'p',
          { class: 'sub' },
          candidate.headline,
          candidate.headline && candidate.profileUrl ? ' · ' : '',
          candidate.profileUrl && h('a', { href: candidate.profileUrl, target: '_blank', rel: 'noopener noreferrer' }, t('view_profile')),
        ),
      ),
    ),
    listing.questions.some((q) => q.required) && h('p', { class: 'sub note' }, listing.title ? t('form_note', { title: listing.title }) : t('required_note')),
    h(
      'fieldset',
      { class: 'field', disabled: busy },
      ...listing.questions.map((q) => field(c, t, q)),
      // The email is required when the listing orders a background check (the vendor's invitation goes there).
      field(c, t, { key: EMAIL_FIELD, label: t(listing.emailRequired ? 'email' : 'email_optional'), type: 'email', required: listing.emailRequired }),
      field(c, t, { key: PHONE_FIELD, label: t('phone_optional'), type: 'tel', required: false }),
      h('div', { class: 'field' }, h('label', { for: 'f-cover' }, t('cover_letter')), cover, h('p', { class: 'err', id: 'e-cover' }, coverError)),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', class: 'primary' }, busy && h('span', { class: 'spin', 'aria-hidden': 'true' }), busy ? t('submitting') : t('submit')),
        cancel,
      ),
    ),
  );
}

function errorText(c: ViewContext, t: T, field: string): string {
  const error = c.flow_.form_.errors_[field];
  return error ? t(error.key, error.params) : '';
}

function field(c: ViewContext, t: T, q: Omit<Question, 'type'> & { type: FieldType }): HTMLElement {
  const id = `f-${q.key}`;
  const errorId = `e-${q.key}`;
  const error = errorText(c, t, q.key);
  const invalid = error ? 'true' : undefined;
  const required = q.required ? 'true' : undefined;
  const value = c.flow_.form_.values_[q.key] ?? '';
  const store = (e: Event) => c.input_(q.key, (e.target as HTMLInputElement).value);
  const mark = q.required && h('span', { class: 'req', 'aria-hidden': 'true' }, '*');
  const errorNode = h('p', { class: 'err', id: errorId }, error);
  if (q.type === 'boolean') {
    const radio = (v: string, key: MessageKey) => {
      const input = h('input', { type: 'radio', name: id, value: v, onchange: store, 'aria-invalid': invalid });
      input.checked = value === v;
      return h('label', {}, input, t(key));
    };
    return h(
      'fieldset',
      { class: 'field', role: 'radiogroup', 'aria-required': required, 'aria-invalid': invalid, 'aria-describedby': errorId, 'data-question': q.key },
      h('legend', {}, h('bdi', {}, q.label), mark),
      h('div', { class: 'choices' }, radio('true', 'yes'), radio('false', 'no')),
      errorNode,
    );
  }
  let control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  const common = { id, name: q.key, 'aria-required': required, 'aria-invalid': invalid, 'aria-describedby': errorId, 'data-question': q.key };
  if (q.type === 'select') {
    control = h(
      'select',
      { ...common, onchange: store },
      h('option', { value: '' }, t('choose')),
      ...(q.options ?? []).map((o) => h('option', { value: o }, o)),
    );
  } else if (q.type === 'number') {
    control = h('input', { ...common, type: 'text', inputmode: 'decimal', autocomplete: 'off', oninput: store });
  } else if (q.type !== 'text') {
    // email or tel: the browser may fill it in (WCAG 1.3.5).
    control = h('input', { ...common, type: q.type, autocomplete: q.type, oninput: store });
  } else {
    control = h('textarea', { ...common, rows: '3', oninput: store });
  }
  control.value = value;
  // <bdi>: the organization's words keep their own direction inside a right-to-left card.
  return h('div', { class: 'field' }, h('label', { for: id }, h('bdi', {}, q.label), mark), control, errorNode);
}
