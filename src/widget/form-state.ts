/**
 * What the candidate typed into the form, the errors its fields show, and the idempotency
 * key of the last submission, kept while the body is unchanged so that a retry after a
 * network error cannot apply twice. Members ending in `_` are the bundle's own (the build
 * shortens their names).
 */
import { randomKey } from './api';
import { coerceAnswers, COVER_LETTER_FIELD, EMAIL_FIELD, PHONE_FIELD, type Message, type Question } from './logic';

export class FormState {
  /** Raw answers by question key (and the contact fields, EMAIL_FIELD and PHONE_FIELD), as the inputs hold them. */
  values_: Record<string, string> = {};
  coverLetter_ = '';
  /** Question key (or COVER_LETTER_FIELD) → the error shown on that field. */
  errors_: Record<string, Message> = {};
  #last?: { body: string; key: string };

  /** Records a field's new value; true when the field showed an error that this value fixes (the error is gone). */
  input_(field: string, value: string, questions: readonly Question[]): boolean {
    const cover = field === COVER_LETTER_FIELD;
    if (cover) this.coverLetter_ = value;
    else this.values_[field] = value;
    if (!this.errors_[field]) return false;
    const { errors } = coerceAnswers(
      questions.filter((q) => q.key === field),
      this.values_,
      cover ? value : '',
    );
    if (errors[field]) return false;
    delete this.errors_[field];
    return true;
  }

  /** The request body and its idempotency key; or, when answers are invalid, how many (their errors are then shown). */
  submission_(profileUserId: string, questions: readonly Question[], language: string): { body: string; key: string } | number {
    const { answers, errors } = coerceAnswers(questions, this.values_, this.coverLetter_);
    this.errors_ = errors;
    const invalid = Object.keys(errors).length;
    if (invalid > 0) return invalid;
    const email = this.values_[EMAIL_FIELD]?.trim();
    const phone = this.values_[PHONE_FIELD]?.trim();
    const contact = email ? { contact: phone ? { email, phone } : { email } } : {};
    const body = JSON.stringify({ profile_user_id: profileUserId, cover_letter: this.coverLetter_, answers, ...contact, language });
    if (this.#last?.body !== body) this.#last = { body, key: randomKey() };
    return this.#last;
  }
}
