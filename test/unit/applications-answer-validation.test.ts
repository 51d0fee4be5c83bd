import { strict as assert } from 'node:assert';
import { validateAnswers } from '../../src/features/applications/domain/answer-validation';
import type { ListingQuestion } from '../../src/features/listings/domain/listing';

const QUESTIONS: ListingQuestion[] = [
  { key: 'years', label: 'Years', type: 'number', required: true },
  { key: 'authorized', label: 'Authorized', type: 'boolean', required: true },
  { key: 'shift', label: 'Shift', type: 'select', required: true, options: ['day', 'night'] },
  { key: 'note', label: 'Note', type: 'text', required: false },
  { key: 'why', label: 'Why', type: 'text', required: true },
];
const VALID = { years: 3, authorized: false, shift: 'night', why: 'Because' };

const failsWith = (answers: Record<string, unknown>, code: string, param: string) =>
  assert.throws(
    () => validateAnswers(QUESTIONS, answers),
    (e: { code: string; details: { param: string } }) => e.code === code && e.details.param === param,
  );

describe('applications: answer validation', () => {
  it('accepts answers of the right types and drops nothing', () => {
    assert.deepEqual(validateAnswers(QUESTIONS, { ...VALID, note: '' }), { ...VALID, note: '' });
    assert.deepEqual(validateAnswers(QUESTIONS, { ...VALID, years: 0 }), { ...VALID, years: 0 });
  });
  it('required questions must be answered', () => {
    for (const key of Object.keys(VALID)) {
      const answers: Record<string, unknown> = { ...VALID };
      delete answers[key];
      failsWith(answers, 'parameter_missing', `answers.${key}`);
    }
    failsWith({ ...VALID, why: '   ' }, 'parameter_missing', 'answers.why');
  });
  it('each type is checked', () => {
    failsWith({ ...VALID, years: '3' }, 'parameter_invalid', 'answers.years');
    failsWith({ ...VALID, years: Number.NaN }, 'parameter_invalid', 'answers.years');
    failsWith({ ...VALID, authorized: 'false' }, 'parameter_invalid', 'answers.authorized');
    failsWith({ ...VALID, shift: 'evening' }, 'parameter_invalid', 'answers.shift');
    failsWith({ ...VALID, shift: true }, 'parameter_invalid', 'answers.shift');
    failsWith({ ...VALID, note: 1 }, 'parameter_invalid', 'answers.note');
    failsWith({ ...VALID, note: 'x'.repeat(5001) }, 'parameter_invalid', 'answers.note');
  });
  it('unknown keys are refused, even with an empty question list', () => {
    failsWith({ ...VALID, extra: 1 }, 'parameter_unknown', 'answers.extra');
    assert.throws(() => validateAnswers([], { a: 1 }), /answers\.a/);
    assert.deepEqual(validateAnswers([], {}), {});
  });
});
