/** Placements and timesheets (zod: validation and /v1/openapi.json). */
import { z } from 'zod';
import { isoDateTime, nullableDateTime } from '../../../platform/http/common-schemas';
import { isTimeZone } from '../../messages/domain/message-language';
import { OVERTIME_RULES } from '../domain/overtime';

const hostId = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,128}$/, 'expected 1-128 letters, digits, _ . or -')
  .meta({ example: 'wrk_1042' });
const name = z.string().trim().min(1).max(200);
const rate = z.number().int().min(0).max(1_000_000).meta({ description: 'Integer cents per hour (at most 10,000.00)', example: 2850 });
const instant = z.iso.datetime({ offset: true }).meta({ example: '2026-11-23T08:00:00-08:00' });

export const createPlacementBody = z.strictObject({
  worker_id: hostId.meta({ description: "The host's id of the worker (who is paid)" }),
  worker_name: name,
  worker_email: z.email().max(254).optional(),
  client_company_id: hostId.meta({ description: "The host's id of the client company (who is invoiced)" }),
  client_name: name,
  client_contact: z.strictObject({ name, email: z.email().max(254) }).meta({ description: 'Who approves the timesheets and receives the invoices' }),
  bill_rate: rate.meta({ description: 'What the client is billed, integer cents per hour' }),
  pay_rate: rate.meta({ description: 'What the worker is paid, integer cents per hour' }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as USD')
    .default('USD'),
  overtime_rule: z.enum(OVERTIME_RULES).default('flsa_weekly').meta({
    description:
      'flsa_weekly: over 40 h in the week at 1.5×; california_daily: over 8 h a day at 1.5×, over 12 h at 2×, then over 40 regular hours a week at 1.5×',
  }),
  timezone: z
    .string()
    .min(1)
    .max(64)
    .refine(isTimeZone, 'expected an IANA time zone such as America/Los_Angeles')
    .default('UTC')
    .meta({ description: 'Workdays are counted in this zone (an entry belongs to the day it starts)' }),
});

export const placementSchema = z
  .object({
    id: z.string().meta({ example: 'plc_8fQ2vZr1LkP0aYwE3cJx' }),
    object: z.literal('placement'),
    worker_id: z.string(),
    worker_name: z.string(),
    worker_email: z.string().nullable(),
    client_company_id: z.string(),
    client_name: z.string(),
    client_contact: z.object({ name: z.string(), email: z.string() }),
    bill_rate: z.number().int(),
    pay_rate: z.number().int(),
    currency: z.string(),
    overtime_rule: z.enum(OVERTIME_RULES),
    timezone: z.string(),
    created_at: isoDateTime,
  })
  .meta({ id: 'Placement' });

const entry = z
  .strictObject({
    start: instant.meta({ description: 'Clock-in (ISO 8601 with offset)' }),
    end: instant.meta({ description: 'Clock-out' }),
    break_minutes: z.number().int().min(0).max(1440).default(0).meta({ description: 'Unpaid break inside the shift' }),
  })
  .meta({ id: 'TimeEntry' });
const entries = z.array(entry).max(50);

export const createTimesheetBody = z.strictObject({
  placement_id: z.string().max(100),
  period_start: z.iso.date().meta({ description: 'First day of the workweek; the timesheet covers 7 days from it', example: '2026-11-23' }),
  entries: entries.default([]),
});

export const replaceEntriesBody = z.strictObject({ entries });

export const listTimesheetsQuery = z.object({
  status: z.enum(['draft', 'submitted', 'approved', 'rejected']).optional(),
  placement_id: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  starting_after: z.string().max(100).optional(),
});

export const timesheetSchema = z
  .object({
    id: z.string().meta({ example: 'tms_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('timesheet'),
    placement_id: z.string(),
    period_start: z.string(),
    period_end: z.string(),
    status: z.enum(['draft', 'submitted', 'approved', 'rejected']),
    entries: z.array(z.object({ start: z.string(), end: z.string(), break_minutes: z.number().int() })),
    regular_minutes: z.number().int(),
    overtime_minutes: z.number().int().meta({ description: 'Paid and billed at 1.5×' }),
    double_time_minutes: z.number().int().meta({ description: 'Paid and billed at 2× (california_daily only)' }),
    pay_amount: z.number().int().meta({ description: "The worker's pay for the week, integer cents (rounded once, half up)" }),
    bill_amount: z.number().int().meta({ description: 'What the client is billed for the week, integer cents' }),
    currency: z.string(),
    review_run_id: z.string().nullable().meta({ description: 'The action run that emailed the approval link to the client contact' }),
    decision_note: z.string().nullable(),
    invoice_id: z.string().nullable().meta({ description: 'The client invoice the hours are billed on' }),
    submitted_at: nullableDateTime,
    decided_at: nullableDateTime,
    created_at: isoDateTime,
  })
  .meta({ id: 'Timesheet' });
