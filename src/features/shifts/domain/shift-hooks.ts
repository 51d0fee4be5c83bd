/**
 * Shifts from the host's hook bus, gated by `scheduling.shift_scheduling`, with the same effect
 * as the API: `shift.published` publishes (once per the host's `shift_id`), `shift.updated`
 * changes it (same UID, SEQUENCE + 1; a report that changes nothing sends nothing),
 * `shift.cancelled` cancels it (a CANCEL). A payload that does not parse is skipped
 * `invalid_payload: <field>`; an unknown `shift_id` is `shift_not_found`.
 */
import { inject } from 'tsyringe';
import { z } from 'zod';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import { SHIFT_SCHEDULING_ACTION, shiftUid, type Shift } from './shift';
import { hostId, instant, language, phone, remindMinutesBefore, text, timezone } from './shift-fields';
import { Shifts, type ShiftChange } from './shifts';

/** The host's shift id: 1-128 of A-Za-z0-9_.- like the other hook ids. */
const shiftId = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'expected 1-128 letters, digits, _, . or -');
const organizer = z.object({ name: text(200), email: z.email().max(254) });

/** The host's shift: the API's body (POST /v1/shifts) plus `shift_id`, the host's id of the shift. */
export const shiftPublishedPayload = z.object({
  shift_id: shiftId,
  employee: z
    .object({
      id: hostId,
      name: text(200),
      email: z.email().max(254).optional(),
      phone: phone.optional(),
      timezone: timezone.default('UTC'),
      language: language.default('en'),
    })
    .refine((e) => e.email !== undefined || e.phone !== undefined, { message: 'an employee needs an email or a phone', path: ['email'] }),
  location: text(500),
  role: text(200).optional(),
  notes: text(2000).optional(),
  starts_at: instant,
  ends_at: instant,
  remind_minutes_before: remindMinutesBefore.optional(),
  organizer: organizer.optional(),
});

/** What changed (PATCH /v1/shifts/{id}'s body) under the host's `shift_id`. */
export const shiftUpdatedPayload = z.object({
  shift_id: shiftId,
  employee: z
    .object({
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
});

export const shiftCancelledPayload = z.object({ shift_id: shiftId });

const report = (shift: Shift, extra: Record<string, unknown>): HookHandlerReport => ({
  shift_id: shift.id,
  host_shift_id: shift.hostShiftId,
  uid: shiftUid(shift),
  sequence: shift.sequence,
  status: shift.status,
  ...extra,
});

@HookHandlerFor({
  name: 'shift-published',
  hook: 'shift.published',
  action: SHIFT_SCHEDULING_ACTION,
  steps: ['email'],
  description: 'Publishes the host’s shift (once per shift_id): an iTIP invitation by email and an SMS with the confirmation link, a reminder before it',
})
export class ShiftPublishedHandler implements GatedHookHandler {
  constructor(@inject(Shifts) private readonly shifts: Shifts) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const p = parsePayload(shiftPublishedPayload, payload);
    const { shift, created } = await this.shifts.publishFromHost(organizationId, p.shift_id, {
      employee: {
        id: p.employee.id,
        name: p.employee.name,
        email: p.employee.email ?? null,
        phone: p.employee.phone ?? null,
        timezone: p.employee.timezone,
        language: p.employee.language,
      },
      location: p.location,
      role: p.role ?? null,
      notes: p.notes ?? null,
      startsAt: new Date(p.starts_at),
      endsAt: new Date(p.ends_at),
      ...(p.organizer ? { organizer: p.organizer } : {}),
      ...(p.remind_minutes_before !== undefined ? { remindMinutesBefore: p.remind_minutes_before } : {}),
    });
    return report(shift, { created });
  }
}

@HookHandlerFor({
  name: 'shift-updated',
  hook: 'shift.updated',
  action: SHIFT_SCHEDULING_ACTION,
  steps: ['email'],
  description: 'Changes the host’s shift: a new REQUEST with the same UID and SEQUENCE + 1 (nothing when nothing changed)',
})
export class ShiftUpdatedHandler implements GatedHookHandler {
  constructor(@inject(Shifts) private readonly shifts: Shifts) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const p = parsePayload(shiftUpdatedPayload, payload);
    const change: ShiftChange = {};
    if (p.employee) change.employee = p.employee;
    if (p.location !== undefined) change.location = p.location;
    if (p.role !== undefined) change.role = p.role;
    if (p.notes !== undefined) change.notes = p.notes;
    if (p.starts_at !== undefined) change.startsAt = new Date(p.starts_at);
    if (p.ends_at !== undefined) change.endsAt = new Date(p.ends_at);
    if (p.remind_minutes_before !== undefined) change.remindMinutesBefore = p.remind_minutes_before;
    if (p.organizer !== undefined) change.organizer = p.organizer;
    const { shift, changed } = await this.shifts.updateFromHost(organizationId, p.shift_id, change);
    return report(shift, { changed });
  }
}

@HookHandlerFor({
  name: 'shift-cancelled',
  hook: 'shift.cancelled',
  action: SHIFT_SCHEDULING_ACTION,
  steps: ['email'],
  description: 'Cancels the host’s shift: an iTIP CANCEL with the same UID and a higher SEQUENCE, and an SMS',
})
export class ShiftCancelledHandler implements GatedHookHandler {
  constructor(@inject(Shifts) private readonly shifts: Shifts) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    return report(await this.shifts.cancelFromHost(organizationId, parsePayload(shiftCancelledPayload, payload).shift_id), {});
  }
}
