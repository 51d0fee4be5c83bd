/** Answers in the listing's question order (src/features/applications/domain/answer-order.ts). */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { inQuestionOrder } from '../../src/features/applications/domain/answer-order';

describe('answers in the listing’s question order', () => {
  it('orders by the questions, whatever order the stored object kept', () => {
    const questions = [{ key: 'years_experience' }, { key: 'work_authorization' }, { key: 'start_date' }];
    // PostgreSQL's jsonb hands keys back shortest first.
    const stored = { start_date: 'Later', years_experience: 6, work_authorization: true };
    assert.deepEqual(inQuestionOrder(stored, questions), [
      ['years_experience', 6],
      ['work_authorization', true],
      ['start_date', 'Later'],
    ]);
  });

  it('keeps every answer exactly once: asked ones in question order, the others after, in their own order', () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
    fc.assert(
      fc.property(fc.uniqueArray(key, { maxLength: 8 }), fc.dictionary(key, fc.integer()), (questionKeys, answers) => {
        const ordered = inQuestionOrder(
          answers,
          questionKeys.map((k) => ({ key: k })),
        );
        assert.deepEqual(Object.fromEntries(ordered), { ...answers }, 'nothing lost, nothing added');
        assert.equal(ordered.length, Object.keys(answers).length);
        const asked = ordered.filter(([k]) => questionKeys.includes(k)).map(([k]) => k);
        assert.deepEqual(
          asked,
          questionKeys.filter((k) => k in answers),
          'asked answers in question order',
        );
        const rest = ordered.slice(asked.length).map(([k]) => k);
        assert.deepEqual(
          rest,
          Object.keys(answers).filter((k) => !questionKeys.includes(k)),
          'then the others, as they came',
        );
      }),
    );
  });
});
