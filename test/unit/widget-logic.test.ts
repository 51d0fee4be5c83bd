/** The widget's pure logic (src/widget/logic.ts): attributes, answers, errors. */
import { strict as assert } from 'node:assert';
import {
  attributeProblems,
  baseFromScriptUrl,
  coerceAnswers,
  COVER_LETTER_FIELD,
  EMAIL_FIELD,
  PHONE_FIELD,
  DEFAULT_BUTTON_TEXT,
  errorMessage,
  fieldForParam,
  needsReauthorization,
  normalizeBase,
  originOf,
  resultFromFragment,
  type Question,
} from '../../src/widget/logic';
import { Translator } from '../../src/widget/i18n/catalog';
import de from '../../src/widget/i18n/de';
import { en } from '../../src/widget/i18n/en';

const QUESTIONS: Question[] = [
  { key: 'years', label: 'Years', type: 'number', required: true },
  { key: 'authorized', label: 'Authorized?', type: 'boolean', required: true },
  { key: 'start', label: 'Start', type: 'select', required: false, options: ['Now', 'Later'] },
  { key: 'notes', label: 'Notes', type: 'text', required: false },
];

describe('widget logic', () => {
  it('documents "Apply with profile" as the default button text', () => {
    assert.equal(DEFAULT_BUTTON_TEXT, 'Apply with profile');
  });

  it('checks the attributes: ids present and prefixed, a known theme, an http(s) api-base', () => {
    const good = { organizationId: 'org_abc123', listingId: 'listing_XYZ9', theme: 'dark', apiBase: null };
    assert.deepEqual(attributeProblems(good), []);
    assert.deepEqual(attributeProblems({ ...good, theme: null }), []);
    const english = new Translator('en', en);
    const say = (problems: ReturnType<typeof attributeProblems>) => problems.map((p) => english.t(p.key, p.params));
    assert.deepEqual(say(attributeProblems({ organizationId: null, listingId: ' ', theme: null, apiBase: null })), [
      'the organization-id attribute is missing',
      'the listing-id attribute is missing',
    ]);
    assert.match(say(attributeProblems({ ...good, organizationId: 'listing_abc' }))[0]!, /organization-id "listing_abc" is not a valid id \(expected org_…\)/);
    assert.match(say(attributeProblems({ ...good, listingId: 'listing_<b>' }))[0]!, /not a valid id/);
    assert.match(say(attributeProblems({ ...good, theme: 'sepia' }))[0]!, /theme "sepia" is not one of light, dark, auto/);
    assert.match(say(attributeProblems({ ...good, apiBase: 'javascript:alert(1)' }))[0]!, /api-base/);
  });

  it('finds the API base and its origin', () => {
    assert.equal(normalizeBase('https://api.example.com/'), 'https://api.example.com');
    assert.equal(normalizeBase('https://ats.example.com/plugins/hi//'), 'https://ats.example.com/plugins/hi');
    assert.equal(normalizeBase('ftp://x'), undefined);
    assert.equal(normalizeBase('https://x.com?q=1'), undefined);
    assert.equal(originOf('https://API.example.com:443/v1'), 'https://api.example.com');
    assert.equal(originOf('http://127.0.0.1:8080/x'), 'http://127.0.0.1:8080');
    assert.equal(baseFromScriptUrl('https://hi.example.com/widgets/profile-apply.js?v=2'), 'https://hi.example.com');
    assert.equal(baseFromScriptUrl('https://ats.example.com/plugins/hi/widgets/profile-apply.0123456789ab.js'), 'https://ats.example.com/plugins/hi');
    assert.equal(baseFromScriptUrl('https://cdn.example.com/some/other-name.js'), 'https://cdn.example.com');
  });

  it('coerces answers to the API types and reports required and malformed ones per question', () => {
    assert.deepEqual(coerceAnswers(QUESTIONS, { years: ' 7.5 ', authorized: 'false', start: 'Later', notes: ' hi ' }), {
      answers: { years: 7.5, authorized: false, start: 'Later', notes: 'hi' },
      errors: {},
    });
    assert.deepEqual(
      coerceAnswers(QUESTIONS, { years: '3,5', authorized: 'true' }).answers,
      { years: 3.5, authorized: true },
      'a decimal comma, optional answers left out',
    );
    assert.deepEqual(coerceAnswers(QUESTIONS, {}).errors, { years: { key: 'required' }, authorized: { key: 'choose_answer' } });
    assert.deepEqual(coerceAnswers(QUESTIONS, { years: '12abc', authorized: 'maybe', start: 'Never' }).errors, {
      years: { key: 'enter_number' },
      authorized: { key: 'choose_yes_no' },
      start: { key: 'choose_option' },
    });
    assert.deepEqual(coerceAnswers(QUESTIONS, { years: 'Infinity', authorized: 'true' }).errors.years, { key: 'enter_number' });
    const cover = coerceAnswers(QUESTIONS, { years: '1', authorized: 'true' }, 'x'.repeat(10_001)).errors[COVER_LETTER_FIELD]!;
    assert.equal(new Translator('en', en).t(cover.key, cover.params), 'Keep your cover letter under 10,000 characters.');
    assert.equal(
      new Translator('de-DE', de).t(cover.key, cover.params),
      'Ihr Anschreiben muss kürzer als 10.000 Zeichen sein.',
      'numbers in the locale’s format',
    );
  });

  it('maps an API error param to the form field it names', () => {
    assert.equal(fieldForParam('answers.years', QUESTIONS), 'years');
    assert.equal(fieldForParam('cover_letter', QUESTIONS), COVER_LETTER_FIELD);
    assert.equal(fieldForParam('contact.email', QUESTIONS), EMAIL_FIELD);
    assert.equal(fieldForParam('contact.phone', QUESTIONS), PHONE_FIELD);
    assert.equal(fieldForParam('answers.unknown_key', QUESTIONS), undefined);
    assert.equal(fieldForParam('profile_user_id', QUESTIONS), undefined);
    assert.equal(fieldForParam(undefined, QUESTIONS), undefined);
  });

  it('has a distinct message per failure kind, provider failures never blamed on the employer', () => {
    const english = new Translator('en', en);
    const say = (code: string, status?: number) => english.t(errorMessage(code, status).key);
    const kinds = {
      provider_down: say('provider_unavailable', 503),
      provider_refused: say('provider_client_rejected', 502),
      provider_unusable: say('provider_error', 502),
      provider_sign_in: say('provider_error'),
      authorization_gone: say('profile_not_authorized', 403),
      duplicate: say('duplicate_application', 409),
      closed: say('listing_closed', 410),
      session_expired: say('invalid_candidate_token', 401),
      network: say('network_error'),
      paused: say('payment_required', 402),
      server: say('internal_error', 500),
    };
    assert.equal(new Set(Object.values(kinds)).size, Object.keys(kinds).length, 'one message per kind');
    for (const key of ['provider_down', 'provider_refused', 'provider_unusable', 'provider_sign_in'] as const) {
      assert.match(kinds[key], /profile provider/, key);
      assert.doesNotMatch(kinds[key], /our side|employer|organization/i, key);
    }
    assert.doesNotMatch(kinds.provider_unusable, /reached/, 'the provider answered');
    for (const code of [
      'consent_denied',
      'state_mismatch',
      'listing_unavailable',
      'popup_closed',
      'popup_blocked',
      'integration_disabled',
      'license_required',
      'rate_limited',
    ]) {
      assert.notEqual(say(code), say('something_else'), code);
    }
    assert.equal(errorMessage('token_expired', 401).key, 'session_expired');
    assert.equal(errorMessage('some_new_code', 402).key, 'paused');
    assert.equal(errorMessage('some_new_code', 503).key, 'server');
    assert.deepEqual(
      ['consent_denied', 'payment_required', 'duplicate_application'].map((c) => errorMessage(c).kind),
      ['info', 'info', 'info'],
      'neutral, not red',
    );
    assert.equal(errorMessage('provider_unavailable', 503).kind, 'error');
    assert.equal(needsReauthorization('anything', 401), true);
    assert.equal(needsReauthorization('profile_not_authorized', 403), true);
    assert.equal(needsReauthorization('duplicate_application', 409), false);
  });

  it('reads the connect result from a URL fragment (redirect mode), and nothing else', () => {
    const message = { type: 'profile-apply:authorized', client_state: 'abc', candidate: { name: 'Zoë Ångström' } };
    const encoded = Buffer.from(JSON.stringify(message)).toString('base64url');
    assert.deepEqual(resultFromFragment(`#profile-apply-result=${encoded}`), message);
    assert.deepEqual(resultFromFragment(`#section&profile-apply-result=${encoded}`), message, 'after another fragment parameter');
    assert.equal(resultFromFragment(''), undefined);
    assert.equal(resultFromFragment('#profile-apply-result='), undefined);
    assert.equal(resultFromFragment('#profile-apply-result=%%%'), undefined);
    assert.equal(resultFromFragment(`#profile-apply-result=${Buffer.from('not json').toString('base64url')}`), undefined);
    assert.equal(resultFromFragment(`#profile-apply-result=${Buffer.from('[1,2]').toString('base64url')}`), undefined);
    assert.equal(resultFromFragment(`#other-result=${encoded}`), undefined);
  });
});
