/**
 * Shifts, pure parts: every language's messages name what the person needs (who, when, where,
 * the link), and the feed is RFC 5545 a calendar client reads (node-ical): one VEVENT per
 * shift with the invitation's UID and SEQUENCE, no METHOD (a published calendar, not an iTIP message).
 */
import { strict as assert } from 'node:assert';
import ical, { type VEvent } from 'node-ical';
import { MESSAGE_LOCALES } from '../../src/features/messages/domain/message-language';
import { reminderInstant, shiftUid, type Shift } from '../../src/features/shifts/domain/shift';
import { shiftFeed } from '../../src/features/shifts/domain/shift-calendar';
import { fill, SHIFT_STRINGS } from '../../src/features/shifts/domain/shift-strings';

const shift = (id: string, sequence: number, start: string): Shift => ({
  id,
  organizationId: 'org_1',
  hostShiftId: null,
  employee: { id: 'emp_1', name: 'Ana', email: null, phone: '+14155550123', timezone: 'Europe/Madrid', language: 'es' },
  location: 'Calle Mayor 1, Madrid',
  role: 'Camarera',
  notes: 'Uniforme negro; llaves en la barra',
  startsAt: new Date(start),
  endsAt: new Date(new Date(start).getTime() + 6 * 3_600_000),
  organizer: { name: 'Acme', email: 'shifts@acme.example' },
  status: 'scheduled',
  sequence,
  response: 'pending',
  respondedAt: null,
  remindMinutesBefore: 120,
  remindAt: null,
  remindedAt: null,
  deliveryStatus: 'sent',
  deliveryReason: null,
  emailRunId: null,
  smsRunId: null,
  retractTo: null,
  createdAt: new Date(start),
  updatedAt: new Date(start),
});

describe('shifts: messages and the feed', () => {
  it('every language’s SMS and reminder name the person, the time, the place and (but the cancellation) the link', () => {
    for (const locale of MESSAGE_LOCALES) {
      const s = SHIFT_STRINGS[locale];
      for (const key of ['sms_new', 'sms_changed', 'sms_cancelled', 'sms_reminder', 'reminder_body'] as const) {
        const text = fill(s[key], { name: 'NAME', when: 'WHEN', location: 'WHERE', url: 'URL' });
        assert.ok(!/\{\w+\}/.test(text), `${locale} ${key} leaves a placeholder: ${text}`);
        for (const part of ['WHEN', 'WHERE', ...(key === 'sms_reminder' ? [] : ['NAME']), ...(key === 'sms_cancelled' ? [] : ['URL'])])
          assert.ok(text.includes(part), `${locale} ${key} names ${part}: ${text}`);
      }
    }
  });

  it('the reminder is due the lead before the start, and never without a lead', () => {
    assert.equal(reminderInstant(new Date('2026-03-29T08:00:00Z'), 120)?.toISOString(), '2026-03-29T06:00:00.000Z');
    assert.equal(reminderInstant(new Date('2026-03-29T08:00:00Z'), null), null);
  });

  it('the feed parses as iCalendar: the invitations’ UIDs and SEQUENCEs, no METHOD, a refresh interval', () => {
    const shifts = [shift('shf_a', 2, '2026-03-29T08:00:00Z'), shift('shf_b', 0, '2026-03-30T08:00:00Z')];
    const text = shiftFeed('Shifts', shifts, new Date('2026-03-28T00:00:00Z'));
    assert.ok(!/^METHOD:/m.test(text));
    assert.match(text, /^REFRESH-INTERVAL;VALUE=DURATION:PT1H\r?$/m);
    const events = Object.values(ical.sync.parseICS(text)).filter((c) => c?.type === 'VEVENT') as VEvent[];
    assert.deepEqual(
      events.map((e) => [e.uid, Number(e.sequence), new Date(e.start).toISOString(), e.location]),
      [
        [shiftUid(shifts[0]!), 2, '2026-03-29T08:00:00.000Z', 'Calle Mayor 1, Madrid'],
        [shiftUid(shifts[1]!), 0, '2026-03-30T08:00:00.000Z', 'Calle Mayor 1, Madrid'],
      ],
    );
    assert.equal(events[0]!.summary, 'Turno de Camarera — Calle Mayor 1, Madrid', 'in the person’s language');
  });
});
