/**
 * The fields of a shift as the host states them, once for both ways in: the API's bodies
 * (http/shift-schemas.ts, which add the OpenAPI descriptions) and the host's hooks (shift-hooks.ts).
 */
import { z } from 'zod';
import { isTimeZone } from '../../messages/domain/message-language';

/** The host's id of an employee. */
export const hostId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'expected 1-128 letters, digits, _ or -');
export const text = (max: number) => z.string().trim().min(1).max(max);
export const instant = z.iso.datetime({ offset: true });
export const phone = z.string().regex(/^\+[1-9]\d{6,14}$/, 'expected an E.164 phone number such as +14155550123');
export const timezone = z.string().min(1).max(64).refine(isTimeZone, 'expected an IANA time zone such as America/New_York');
export const language = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'expected a BCP 47 language tag such as es-MX')
  .max(35);
/** Minutes before the start for the reminder; null: none. */
export const remindMinutesBefore = z
  .number()
  .int()
  .min(5)
  .max(7 * 24 * 60)
  .nullable();
