/** Shifts over HTTP (zod: validation and /v1/openapi.json). */
import { z } from 'zod';
import { isoDateTime, nullableDateTime } from '../../../platform/http/common-schemas';
import {
  hostId as hostIdField,
  instant as instantField,
  language,
  phone as phoneField,
  remindMinutesBefore as remindField,
  text,
  timezone,
} from '../domain/shift-fields';

const hostId = hostIdField.meta({ example: 'emp_1042' });
const instant = instantField.meta({ example: '2026-12-05T17:00:00-05:00' });
const phone = phoneField.meta({ example: '+14155550123' });
const remindMinutesBefore = remindField.meta({
  description: 'How long before the start the reminder goes out (SMS, else email); null: none. Default 120',
});
const organizer = z.strictObject({ name: text(200), email: z.email().max(254) }).meta({
  description: 'The ORGANIZER of the invitation (whom calendar replies go to); default: "Shift scheduling" at the deployment’s host',
});

const employee = z
  .strictObject({
    id: hostId.meta({ description: "The host's id of the employee: their feed lists the shifts published under it" }),
    name: text(200),
    email: z.email().max(254).optional().meta({ description: 'Receives the iTIP invitation (and the reminder when no SMS goes)' }),
    phone: phone.optional().meta({ description: 'Receives the SMS with the confirmation link and the reminder' }),
    timezone: timezone.default('UTC').meta({ description: 'How the person reads the times (messages and the page)' }),
    language: language.default('en').meta({ description: 'BCP 47; messages and the page in en, es, fr, de, pt or ar (others read English)' }),
  })
  .refine((e) => e.email !== undefined || e.phone !== undefined, { message: 'an employee needs an email or a phone', path: ['email'] });

export const createShiftBody = z.strictObject({
  employee,
  location: text(500),
  role: text(200).optional(),
  notes: text(2000).optional(),
  starts_at: instant,
  ends_at: instant.meta({ description: 'After starts_at, at most 24 hours later' }),
  remind_minutes_before: remindMinutesBefore.optional(),
  organizer: organizer.optional(),
});

export const updateShiftBody = z
  .strictObject({
    employee: z
      .strictObject({
        name: text(200).optional(),
        email: z.email().max(254).optional(),
        phone: phone.optional(),
        timezone: timezone.optional(),
        language: language.optional(),
      })
      .optional(),
    location: text(500).optional(),
    role: text(200).nullable().optional(),
    notes: text(2000).nullable().optional(),
    starts_at: instant.optional(),
    ends_at: instant.optional(),
    remind_minutes_before: remindMinutesBefore.optional(),
    organizer: organizer.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'nothing to change' });

export const listShiftsQuery = z.object({
  employee_id: hostId.optional(),
  status: z.enum(['scheduled', 'cancelled']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  starting_after: z.string().max(100).optional(),
});

export const shiftParams = z.object({ shift_id: z.string().max(100) });

export const shiftSchema = z
  .object({
    id: z.string().meta({ example: 'shf_8fQ2vZr1LkP0aYwE3cJx' }),
    object: z.literal('shift'),
    host_shift_id: z
      .string()
      .nullable()
      .meta({ description: 'The host’s shift_id of a shift published through its hook bus (shift.published); null through the API' }),
    employee: z.object({
      id: z.string(),
      name: z.string(),
      email: z.string().nullable(),
      phone: z.string().nullable(),
      timezone: z.string(),
      language: z.string(),
    }),
    location: z.string(),
    role: z.string().nullable(),
    notes: z.string().nullable(),
    starts_at: isoDateTime,
    ends_at: isoDateTime,
    status: z.enum(['scheduled', 'cancelled']),
    uid: z.string().meta({ description: 'The iCalendar UID of the invitation and the feed entry; stable for the shift’s life' }),
    sequence: z.number().int().meta({ description: 'The iCalendar SEQUENCE: 0 when published, one more with every change or the cancellation' }),
    response: z
      .enum(['pending', 'confirmed', 'declined'])
      .meta({ description: 'The person’s answer to the current version (a change of time or place asks again)' }),
    responded_at: nullableDateTime,
    remind_minutes_before: z.number().int().nullable(),
    remind_at: nullableDateTime,
    reminded_at: nullableDateTime,
    delivery: z.object({
      status: z.enum(['pending', 'sent', 'failed']).meta({ description: 'Whether the current version reached the person (pending: the job has not run yet)' }),
      reason: z.string().nullable().meta({ description: 'Why not: the failed run’s code (connection_missing, …) or no_channel' }),
      email_run_id: z.string().nullable(),
      sms_run_id: z.string().nullable(),
    }),
    organizer: z.object({ name: z.string(), email: z.string() }),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'Shift' });

export const feedBody = z.strictObject({
  employee_id: hostId,
  rotate: z.boolean().default(false).meta({ description: 'A new link; the old one answers 410 link_revoked from now on' }),
});

export const feedSchema = z
  .object({
    object: z.literal('shift_feed'),
    employee_id: z.string(),
    version: z.number().int(),
    url: z.string().meta({ description: 'https: the person’s upcoming shifts as text/calendar (signed, no API key)' }),
    webcal_url: z.string().meta({ description: 'The same feed as webcal://, which calendar apps subscribe to' }),
  })
  .meta({ id: 'ShiftFeed' });
