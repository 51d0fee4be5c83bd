/** Scheduling requests (zod: validation and /v1/openapi.json). */
import { z } from 'zod';
import { isoDateTime, nullableDateTime } from '../../../platform/http/common-schemas';
import { isTimeZone } from '../../messages/domain/message-language';

const zone = z.string().max(64).refine(isTimeZone, 'an IANA time zone, e.g. Europe/Berlin').meta({ example: 'Europe/Berlin' });
const instant = z.iso.datetime({ offset: true }).meta({ example: '2026-12-01T08:00:00Z' });
const hhmm = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$/, 'HH:mm (24:00 ends the day)');
const range = z.tuple([hhmm, hhmm]).refine(([from, to]) => from < to, 'the start is before the end');
const day = z.array(range).max(6);

export const workingHoursSchema = z
  .strictObject({
    mon: day.optional(),
    tue: day.optional(),
    wed: day.optional(),
    thu: day.optional(),
    fri: day.optional(),
    sat: day.optional(),
    sun: day.optional(),
  })
  .meta({
    id: 'WorkingHours',
    description: 'Wall-clock ranges per weekday in the interviewer’s own zone; default Monday to Friday 09:00–17:00',
    example: {
      mon: [
        ['09:00', '12:00'],
        ['13:00', '17:00'],
      ],
      fri: [['09:00', '15:00']],
    },
  });

export const createSchedulingRequestBody = z
  .strictObject({
    application_id: z.string().min(1).max(100).meta({ description: 'The host’s application the interview is for', example: 'app_42' }),
    title: z.string().min(1).max(200).optional().meta({ description: 'The event’s title; default "Interview: <candidate name>"' }),
    candidate: z.strictObject({
      name: z.string().min(1).max(200),
      email: z.email().max(254),
      phone: z
        .string()
        .regex(/^\+[1-9][0-9]{6,14}$/, 'an E.164 phone number')
        .optional()
        .meta({ description: 'The link also goes by SMS when an SMS connector resolves' }),
      language: z.string().max(35).optional().meta({ description: 'BCP 47: en, es, fr, de, pt, ar (others: English)', example: 'de-DE' }),
      timezone: zone.meta({ description: 'The zone the page and the invitation show times in' }),
    }),
    interviewers: z
      .array(
        z.strictObject({
          name: z.string().min(1).max(200),
          email: z.email().max(254),
          calendar_connection_id: z
            .string()
            .min(1)
            .max(100)
            .meta({ description: 'The interviewer’s verified `calendar` connection (CalDAV)', example: 'conn_3mZ8' }),
          calendar_url: z
            .url({ protocol: /^https?$/ })
            .max(1000)
            .optional()
            .meta({ description: 'The interviewer’s calendar on that connection’s account (a shared calendar); default the connection’s calendar' }),
          timezone: zone,
          working_hours: workingHoursSchema.optional(),
        }),
      )
      .min(1)
      .max(10),
    duration_minutes: z.number().int().min(10).max(480),
    window: z
      .strictObject({ start: instant, end: instant })
      .refine((w) => Date.parse(w.start) < Date.parse(w.end), 'start before end')
      .refine((w) => Date.parse(w.end) - Date.parse(w.start) <= 62 * 24 * 3600_000, 'at most 62 days'),
    organizer: z
      .strictObject({ name: z.string().min(1).max(200), email: z.email().max(254) })
      .optional()
      .meta({
        description: 'Who the invitation comes from; default the first interviewer',
      }),
  })
  .meta({ id: 'SchedulingRequestCreate' });

export const schedulingRequestSchema = z
  .object({
    id: z.string().meta({ example: 'sreq_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('scheduling_request'),
    application_id: z.string(),
    status: z
      .enum(['open', 'booked', 'cancelled'])
      .meta({ description: 'open: no time picked yet; booked: see `booked`; cancelled: by the candidate, or withdrawn by the host (`cancelled_by`)' }),
    cancelled_by: z
      .enum(['candidate', 'host'])
      .nullable()
      .meta({ description: 'Who cancelled: the candidate on their page, or the host (POST /v1/scheduling/requests/{id}/cancel); null while not cancelled' }),
    cancellation_reason: z.string().nullable().meta({ description: 'The host’s reason, as given to the cancel call (never shown to the candidate)' }),
    cancelled_at: nullableDateTime,
    url: z.string().meta({ description: 'The candidate’s signed scheduling page (sent by email and SMS): treat it as a secret' }),
    booked: z.object({ start: isoDateTime, end: isoDateTime }).nullable(),
    duration_minutes: z.number().int(),
    window: z.object({ start: isoDateTime, end: isoDateTime }),
    timezone: z.string(),
    email_run_id: z.string().nullable().meta({ description: 'The action run that sent the link by email' }),
    sms_run_id: z.string().nullable().meta({ description: 'The action run that sent the link by SMS' }),
    expires_at: isoDateTime.meta({ description: 'When the link stops working (a week after the window)' }),
    created_at: isoDateTime,
  })
  .meta({ id: 'SchedulingRequest' });

export const cancelSchedulingRequestBody = z
  .strictObject({
    reason: z.string().min(1).max(500).optional().meta({
      description: 'Why the host withdraws the request: kept on the request and in `interview.canceled`, never shown to the candidate',
      example: 'Position filled',
    }),
  })
  .meta({ id: 'SchedulingRequestCancel' });
