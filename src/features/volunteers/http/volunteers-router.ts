/**
 * Mounted at /v1/volunteers (hris.volunteer_management): hours logged per volunteer, a
 * volunteer's entries and total, an entry with its history, its correction or void (with a
 * reason), and the volunteer_hours.v1 export of a period (a download).
 */
import { isoDateTime } from '../../../platform/http/common-schemas';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import { totalMinutes, type VolunteerHours, type VolunteerHoursChange, type VolunteerHoursEntry } from '../domain/volunteer-hours';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const hostId = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'expected 1-128 letters, digits, . _ : or -')
  .meta({ description: "The host's id of the volunteer (the candidate id of volunteer.cleared)", example: 'cand_4410' });
const label = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((v) => ![...v].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f), 'expected no control characters');

const logBody = z.strictObject({
  volunteer_id: hostId,
  volunteer_name: label.meta({ example: 'Grace Hopper' }),
  volunteer_email: z.email().max(254),
  date: z.iso.date().meta({ description: "The school's local day of the service", example: '2026-11-20' }),
  minutes: z.number().int().min(1).max(1440).meta({ description: 'Whole minutes served that day', example: 150 }),
  school: label.optional(),
  activity: label.optional().meta({ example: 'Library reading hour' }),
});

const entrySchema = z
  .object({
    id: z.string().meta({ example: 'vhr_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('volunteer_hours'),
    volunteer_id: z.string(),
    volunteer_name: z.string(),
    volunteer_email: z.string(),
    date: z.string(),
    minutes: z.number().int(),
    school: z.string().nullable(),
    activity: z.string().nullable(),
    status: z.enum(['logged', 'voided']).meta({ description: 'A voided entry counts in no total and no export; it stays, with its history' }),
    revision: z.number().int().meta({ description: '1 when logged, + 1 for each correction or void (send it back to refuse a stale correction)' }),
    created_at: isoDateTime,
    updated_at: isoDateTime.nullable(),
  })
  .meta({ id: 'VolunteerHours' });

const values = z.object({ date: z.string(), minutes: z.number().int(), school: z.string().nullable(), activity: z.string().nullable() });
const changeSchema = z
  .object({
    id: z.string().meta({ example: 'vhc_Jx8fQ2vZr1LkP0aYwE3c' }),
    revision: z.number().int(),
    kind: z.enum(['corrected', 'voided']),
    reason: z.string(),
    before: values,
    after: values.nullable().meta({ description: 'Null for a void' }),
    changed_at: isoDateTime,
  })
  .meta({ id: 'VolunteerHoursChange' });
const entryWithHistory = entrySchema.extend({ changes: z.array(changeSchema) }).meta({ id: 'VolunteerHoursWithHistory' });

const hoursParams = z.object({ hours_id: z.string().min(1).max(100).meta({ example: 'vhr_Jx8fQ2vZr1LkP0aYwE3c' }) });
const reason = label.meta({ description: 'Why (kept in the history and the audit trail)', example: 'Signed out at 11:30, not 12:30' });
const revision = z.number().int().min(1).optional().meta({ description: 'The revision read: a correction based on an older one is refused' });
const correctBody = z.strictObject({
  date: z.iso.date().optional(),
  minutes: z.number().int().min(1).max(1440).optional(),
  school: label.nullable().optional(),
  activity: label.nullable().optional(),
  reason,
  revision,
});
const voidBody = z.strictObject({ reason, revision });

const view = (e: VolunteerHoursEntry): z.output<typeof entrySchema> => ({
  id: e.id,
  object: 'volunteer_hours',
  volunteer_id: e.volunteerId,
  volunteer_name: e.volunteerName,
  volunteer_email: e.volunteerEmail,
  date: e.date,
  minutes: e.minutes,
  school: e.school,
  activity: e.activity,
  status: e.status,
  revision: e.revision,
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt ? e.updatedAt.toISOString() : null,
});

const changeView = (c: VolunteerHoursChange): z.output<typeof changeSchema> => ({
  id: c.id,
  revision: c.revision,
  kind: c.kind,
  reason: c.reason,
  before: c.before,
  after: c.after,
  changed_at: c.changedAt.toISOString(),
});

const withHistory = ({ entry, changes }: { entry: VolunteerHoursEntry; changes: VolunteerHoursChange[] }) => ({
  ...view(entry),
  changes: changes.map(changeView),
});

export function volunteerRoutes(hours: VolunteerHours): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/hours',
      operationId: 'logVolunteerHours',
      summary: "Logs a day's service of a volunteer in whole minutes (hris.volunteer_management)",
      tags: ['volunteers'],
      auth: ['organization'],
      idempotent: true,
      body: logBody,
      status: 201,
      response: entrySchema,
      errors: [403],
      handler: async ({ principal, body }) =>
        reply(
          201,
          view(
            await hours.log(orgId(principal), {
              volunteerId: body.volunteer_id,
              volunteerName: body.volunteer_name,
              volunteerEmail: body.volunteer_email,
              date: body.date,
              minutes: body.minutes,
              school: body.school ?? null,
              activity: body.activity ?? null,
            }),
          ),
        ),
    }),
    defineRoute({
      method: 'get',
      path: '/hours',
      operationId: 'listVolunteerHours',
      summary: "A volunteer's logged hours (oldest day first) and their total in minutes",
      tags: ['volunteers'],
      auth: ['organization'],
      query: z.strictObject({
        volunteer_id: hostId,
        from: z.iso.date().optional(),
        to: z.iso.date().optional(),
        include_voided: z.enum(['true', 'false']).optional().meta({ description: 'Voided entries too (never counted in total_minutes)' }),
      }),
      response: z.object({ object: z.literal('list'), data: z.array(entrySchema), has_more: z.boolean(), total_minutes: z.number().int() }),
      errors: [403],
      handler: async ({ principal, query }) => {
        const entries = await hours.list(orgId(principal), {
          volunteerId: query.volunteer_id,
          ...(query.from ? { from: query.from } : {}),
          ...(query.to ? { to: query.to } : {}),
          includeVoided: query.include_voided === 'true',
        });
        return { object: 'list' as const, data: entries.map(view), has_more: false, total_minutes: totalMinutes(entries) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/hours/:hours_id',
      operationId: 'getVolunteerHours',
      summary: 'A volunteer hours entry with its history of corrections and voids',
      tags: ['volunteers'],
      auth: ['organization'],
      params: hoursParams,
      response: entryWithHistory,
      errors: [403],
      handler: async ({ principal, params }) => withHistory(await hours.get(orgId(principal), params.hours_id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/hours/:hours_id',
      operationId: 'correctVolunteerHours',
      summary: "Corrects an entry's day, minutes, school or activity with a reason; the values before and after are kept in its history",
      tags: ['volunteers'],
      auth: ['organization'],
      params: hoursParams,
      body: correctBody,
      response: entryWithHistory,
      errors: [403, 409],
      handler: async ({ principal, params, body }) =>
        withHistory(
          await hours.correct(orgId(principal), params.hours_id, {
            reason: body.reason,
            ...(body.date !== undefined ? { date: body.date } : {}),
            ...(body.minutes !== undefined ? { minutes: body.minutes } : {}),
            ...(body.school !== undefined ? { school: body.school } : {}),
            ...(body.activity !== undefined ? { activity: body.activity } : {}),
            ...(body.revision !== undefined ? { revision: body.revision } : {}),
          }),
        ),
    }),
    defineRoute({
      method: 'post',
      path: '/hours/:hours_id/void',
      operationId: 'voidVolunteerHours',
      summary: 'Voids an entry with a reason: it stays, with its history, and counts in no total and no export',
      tags: ['volunteers'],
      auth: ['organization'],
      params: hoursParams,
      body: voidBody,
      response: entryWithHistory,
      errors: [403, 409],
      handler: async ({ principal, params, body }) => withHistory(await hours.void(orgId(principal), params.hours_id, body.reason, body.revision)),
    }),
    defineRoute({
      method: 'post',
      path: '/hours_exports',
      operationId: 'exportVolunteerHours',
      summary: 'Every volunteer hours entry of a period as a volunteer_hours.v1 CSV (a download, recorded as an action run with its SHA-256)',
      tags: ['volunteers'],
      auth: ['organization'],
      body: z.strictObject({ from: z.iso.date(), to: z.iso.date() }),
      status: 201,
      response: z
        .object({
          object: z.literal('volunteer_hours_export'),
          format: z.literal('volunteer_hours.v1'),
          rows: z.number().int(),
          total_minutes: z.number().int(),
          sha256: z.string(),
          run_id: z.string(),
          content: z.string(),
        })
        .meta({ id: 'VolunteerHoursExport' }),
      errors: [403],
      handler: async ({ principal, body }) => {
        const e = await hours.export(orgId(principal), body.from, body.to);
        return reply(201, {
          object: 'volunteer_hours_export' as const,
          format: 'volunteer_hours.v1' as const,
          rows: e.rows,
          total_minutes: e.totalMinutes,
          sha256: e.sha256,
          run_id: e.runId,
          content: e.content,
        });
      },
    }),
  ];
}
