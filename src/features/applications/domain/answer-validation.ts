/**
 * Answers are checked against the listing's questions: no unknown keys, every required
 * question answered, each value of its question's type, select values among the options.
 * Errors name the answer (`answers.<key>`) as the error model's `param`.
 */
import type { ListingQuestion } from '../../listings/domain/listing';
import { DomainError } from '../../../kernel/errors';

export type AnswerValue = number | boolean | string;
export const MAX_TEXT_ANSWER_LENGTH = 5000;

const error = (code: 'parameter_missing' | 'parameter_invalid' | 'parameter_unknown', key: string, message: string) =>
  new DomainError('invalid', code, message, { param: `answers.${key}` });

function checkValue(question: ListingQuestion, value: unknown): AnswerValue {
  const { key } = question;
  switch (question.type) {
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw error('parameter_invalid', key, `Invalid answers.${key}: expected a number`);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw error('parameter_invalid', key, `Invalid answers.${key}: expected true or false`);
      return value;
    case 'text':
      if (typeof value !== 'string') throw error('parameter_invalid', key, `Invalid answers.${key}: expected a string`);
      if (value.length > MAX_TEXT_ANSWER_LENGTH) throw error('parameter_invalid', key, `Invalid answers.${key}: at most ${MAX_TEXT_ANSWER_LENGTH} characters`);
      if (question.required && value.trim() === '') throw error('parameter_missing', key, `Missing required parameter: answers.${key}`);
      return value;
    case 'select':
      if (typeof value !== 'string' || !(question.options ?? []).includes(value)) {
        throw error('parameter_invalid', key, `Invalid answers.${key}: expected one of ${(question.options ?? []).map((o) => JSON.stringify(o)).join(', ')}`);
      }
      return value;
  }
}

export function validateAnswers(questions: readonly ListingQuestion[], answers: Record<string, unknown>): Record<string, AnswerValue> {
  const known = new Map(questions.map((q) => [q.key, q]));
  for (const key of Object.keys(answers)) {
    if (!known.has(key)) throw error('parameter_unknown', key, `Received unknown parameter: answers.${key} (not a question of this listing)`);
  }
  const valid: Record<string, AnswerValue> = {};
  for (const question of questions) {
    const value = answers[question.key];
    if (value === undefined || value === null) {
      if (question.required) throw error('parameter_missing', question.key, `Missing required parameter: answers.${question.key}`);
      continue;
    }
    valid[question.key] = checkValue(question, value);
  }
  return valid;
}
