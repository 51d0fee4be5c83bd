/**
 * How an application's candidate can be reached: given with a profile application
 * (`contact`), or the board applicant's. The email is kept normalized (trimmed, lower-cased):
 * it is how the same person is recognized across a profile and a board application of one
 * listing, and where a background-check vendor sends its consent invitation.
 */
import { invalid } from '../../../kernel/errors';

export interface ApplicationContact {
  email: string;
  phone: string | null;
}

export const MAX_EMAIL_LENGTH = 254;
export const MAX_PHONE_LENGTH = 32;

export const normalizedEmail = (email: string) => email.trim().toLowerCase();

/** A phone number as people type it: digits with an optional leading +, spaces, dots, dashes and brackets (7 to 15 digits). */
export const PHONE_PATTERN = /^\+?[0-9 ().-]{7,32}$/;
export const isPhone = (phone: string) => PHONE_PATTERN.test(phone) && /^(?:\D*\d){7,15}\D*$/.test(phone);

export const contactEmailRequired = () =>
  invalid(
    'parameter_missing',
    "contact.email is required: this listing orders a background check when an application arrives, and the vendor's invitation goes there",
    'contact.email',
  );
