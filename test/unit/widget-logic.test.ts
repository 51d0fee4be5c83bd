/** The widget's pure logic (src/widget/logic.ts): attributes, answers, errors. */
import { strict as assert } from 'node:assert';
import {
  attributeProblems,
  baseFromScriptUrl,
  coerceAnswers,
  COVER_LETTER_FIELD,
  DEFAULT_BUTTON_TEXT,
  errorMessage,
  fieldForParam,
  needsReauthorization,
  normalizeBase,
  originOf,
  resultFromFragment,
  type Question,
} from '../../src/widget/logic';

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
    assert.deepEqual(attributeProblems({ organizationId: null, listingId: ' ', theme: null, apiBase: null }), [
      'the organization-id attribute is missing',
      'the listing-id attribute is missing',
    ]);
    assert.match(attributeProblems({ ...good, organizationId: 'listing_abc' })[0]!, /organization-id "listing_abc" is not a valid id/);
    assert.match(attributeProblems({ ...good, listingId: 'listing_<b>' })[0]!, /not a valid id/);
    assert.match(attributeProblems({ ...good, theme: 'sepia' })[0]!, /theme "sepia" is not one of light, dark, auto/);
    assert.match(attributeProblems({ ...good, apiBase: 'javascript:alert(1)' })[0]!, /api-base/);
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
    assert.deepEqual(coerceAnswers(QUESTIONS, { years: '3,5', authorized: 'true' }).answers, { years: 3.5, authorized: true }, 'a decimal comma, optional answers left out');
    assert.deepEqual(coerceAnswers(QUESTIONS, {}).errors, { years: 'This question is required.', authorized: 'Choose an answer.' });
    assert.deepEqual(coerceAnswers(QUESTIONS, { years: '12abc', authorized: 'maybe', start: 'Never' }).errors, {
      years: 'Enter a number.',
      authorized: 'Choose yes or no.',
      start: 'Choose one of the options.',
    });
    assert.equal(coerceAnswers(QUESTIONS, { years: 'Infinity', authorized: 'true' }).errors.years, 'Enter a number.');
    assert.equal(coerceAnswers(QUESTIONS, { years: '1', authorized: 'true' }, 'x'.repeat(10_001)).errors[COVER_LETTER_FIELD], 'Keep your cover letter under 10000 characters.');
  });

  it('maps an API error param to the form field it names', () => {
    assert.equal(fieldForParam('answers.years', QUESTIONS), 'years');
    assert.equal(fieldForParam('cover_letter', QUESTIONS), COVER_LETTER_FIELD);
    assert.equal(fieldForParam('answers.unknown_key', QUESTIONS), undefined);
    assert.equal(fieldForParam('profile_user_id', QUESTIONS), undefined);
    assert.equal(fieldForParam(undefined, QUESTIONS), undefined);
  });

  it('has a clear message for every error the flow can meet', () => {
    for (const code of ['consent_denied', 'state_mismatch', 'provider_error', 'listing_unavailable', 'listing_closed', 'duplicate_application', 'popup_closed', 'popup_blocked', 'integration_disabled', 'license_required', 'profile_not_authorized', 'rate_limited', 'network_error']) {
      assert.notEqual(errorMessage(code), errorMessage('something_else'), code);
    }
    assert.match(errorMessage('payment_required', 402), /paused/, 'a suspended organization: said neutrally');
    assert.match(errorMessage('token_expired', 401), /expired/);
    assert.match(errorMessage('internal_error', 500), /our side/);
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
