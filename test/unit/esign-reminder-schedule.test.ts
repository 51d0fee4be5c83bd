/**
 * The reminder schedule of an envelope: first after N days, then every M, the notice a day
 * before expiry instead of a reminder in that day, the latest slot only after downtime, none
 * once claimed, off, or expired.
 */
import { strict as assert } from 'node:assert';
import { DEFAULT_REMINDERS, dueReminder, nextReminderAt, type ReminderSettings } from '../../src/features/esign/domain/reminder-schedule';

const DAY = 86_400_000;
const T0 = Date.parse('2026-12-01T09:00:00Z');
const at = (days: number) => new Date(T0 + days * DAY);
const envelope = (expiresInDays: number, reminderDueAt: Date | null = null) => ({ createdAt: at(0), expiresAt: at(expiresInDays), reminderDueAt });
const due = (e: ReturnType<typeof envelope>, days: number, settings: ReminderSettings = DEFAULT_REMINDERS) => {
  const slot = dueReminder(e, settings, at(days));
  return slot ? `${slot.kind} ${slot.number} @${(slot.dueAt.getTime() - T0) / DAY}` : null;
};

describe('esign reminder schedule', () => {
  it('first after 2 days, then every 3, the expiry notice a day before a 14-day expiry', () => {
    const e = envelope(14);
    assert.equal(due(e, 1.9), null);
    assert.equal(due(e, 2), 'reminder 1 @2');
    assert.equal(due(e, 4.9), 'reminder 1 @2');
    assert.equal(due(e, 5), 'reminder 2 @5');
    assert.equal(due(e, 11.5), 'reminder 4 @11');
    assert.equal(due(e, 13), 'expiry_notice 5 @13');
    assert.equal(due(e, 13.99), 'expiry_notice 5 @13');
    assert.equal(due(e, 14), null, 'expired');
  });

  it('a claimed slot is not due again; after downtime only the latest slot is', () => {
    assert.equal(due(envelope(14, at(2)), 4), null);
    assert.equal(due(envelope(14, at(2)), 9), 'reminder 3 @8', 'slot 2 (day 5) was missed: one reminder, not two');
    assert.equal(due(envelope(14, at(13)), 13.5), null);
  });

  it('the notice replaces a reminder falling in the last day; without it reminders run to the expiry; off sends nothing', () => {
    const daily = { ...DEFAULT_REMINDERS, firstAfterDays: 1, everyDays: 1 };
    assert.equal(due(envelope(5), 3.5, daily), 'reminder 3 @3');
    assert.equal(due(envelope(5), 4, daily), 'expiry_notice 4 @4');
    assert.equal(due(envelope(5), 4.5, { ...daily, expiryNotice: false }), 'reminder 4 @4');
    assert.equal(due(envelope(14), 5, { ...DEFAULT_REMINDERS, enabled: false }), null);
  });

  it('a one-day envelope gets no notice (it would go with the link); a two-day one gets it after a day', () => {
    assert.equal(due(envelope(1), 0.5), null);
    assert.equal(due(envelope(2), 1), 'expiry_notice 1 @1');
    assert.equal(due(envelope(2), 0.9), null);
  });

  it('the next reminder: the pending slot, else the next one, else the notice, else none', () => {
    const next = (e: ReturnType<typeof envelope>, days: number, settings: ReminderSettings = DEFAULT_REMINDERS) => {
      const when = nextReminderAt(e, settings, at(days));
      return when ? (when.getTime() - T0) / DAY : null;
    };
    assert.equal(next(envelope(14), 0), 2);
    assert.equal(next(envelope(14), 3), 2, 'due and not sent yet');
    assert.equal(next(envelope(14, at(2)), 3), 5);
    assert.equal(next(envelope(14, at(11)), 12), 13);
    assert.equal(next(envelope(14, at(13)), 13.5), null);
    assert.equal(next(envelope(14), 1, { ...DEFAULT_REMINDERS, enabled: false }), null);
  });
});
