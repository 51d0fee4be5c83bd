/**
 * Listing ids belong to the host: any opaque string it uses (a UUID, an integer, `job-42`,
 * the standalone host's `listing_…`), within limits that keep it safe in a URL path
 * segment, a cookie-bound session and a log line: 1–128 characters of A–Z, a–z, 0–9 and
 * `_ - . ~ : @`. The widget's attribute check (src/widget/logic.ts) applies the same rule.
 */
export const LISTING_ID_MAX_LENGTH = 128;

const LISTING_ID = /^[A-Za-z0-9_.~:@-]{1,128}$/;

export function isListingId(value: unknown): value is string {
  return typeof value === 'string' && LISTING_ID.test(value);
}
