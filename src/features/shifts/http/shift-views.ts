/** The JSON shape of a shift (snake_case, ISO instants). */
import type { z } from 'zod';
import { shiftUid, type Shift } from '../domain/shift';
import type { shiftSchema } from './shift-schemas';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const shiftView = (s: Shift): z.output<typeof shiftSchema> => ({
  id: s.id,
  object: 'shift',
  host_shift_id: s.hostShiftId,
  employee: { ...s.employee },
  location: s.location,
  role: s.role,
  notes: s.notes,
  starts_at: s.startsAt.toISOString(),
  ends_at: s.endsAt.toISOString(),
  status: s.status,
  uid: shiftUid(s),
  sequence: s.sequence,
  response: s.response,
  responded_at: iso(s.respondedAt),
  remind_minutes_before: s.remindMinutesBefore,
  remind_at: iso(s.remindAt),
  reminded_at: iso(s.remindedAt),
  delivery: { status: s.deliveryStatus, reason: s.deliveryReason, email_run_id: s.emailRunId, sms_run_id: s.smsRunId },
  organizer: s.organizer,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});
