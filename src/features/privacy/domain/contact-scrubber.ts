/**
 * Removes email addresses and phone numbers from text a counterpart wrote (an SMTP `550
 * <ann@example.com>: mailbox unavailable`, an SMS gateway's "+15005550006 is not a valid
 * number"), so that stored error messages hold no candidate's contact details: they are
 * kept for operations, not erased with the candidate.
 */
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** International (+ and 7–15 digits, separators allowed), a North American 10-digit number, or any bare run of 10+ digits. */
const PHONE = /\+\d(?:[\s().-]{0,2}\d){6,14}|(?<![\w.])\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}(?!\w)|(?<![\w.])\d{10,15}(?![\w.])/g;

export const SCRUBBED_EMAIL = '[email]';
export const SCRUBBED_PHONE = '[phone]';

export function scrubContactDetails(text: string): string;
export function scrubContactDetails(text: string | null): string | null;
export function scrubContactDetails(text: string | null): string | null {
  if (text === null) return null;
  return text.replace(EMAIL, SCRUBBED_EMAIL).replace(PHONE, SCRUBBED_PHONE);
}
