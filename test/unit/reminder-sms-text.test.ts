/**
 * The interview reminder SMS in each message language, without I/O: the words, the time
 * written for the language and zone, and the encoding the segment count follows (English
 * stays GSM-7 in one segment; Arabic is UCS-2). Counted with the SMS feature's own
 * segmenter, checked here against hand-counted lengths.
 */
import { strict as assert } from 'node:assert';
import { reminderText, type InterviewReminder } from '../../src/features/reminders/domain/interview-reminders';
import { segmentSms } from '../../src/features/sms/domain/sms-segments';

const reminder = (language: string | undefined, timezone: string | undefined, location?: string): InterviewReminder => ({
  organizationId: 'org_1',
  interviewId: 'int_1',
  channel: 'sms',
  status: 'scheduled',
  revision: 0,
  jobId: 'reminder-sms-org_1-int_1-0',
  // Tuesday 2 March 2027, 14:05 UTC.
  startsAt: new Date('2027-03-02T14:05:00Z'),
  remindAt: new Date('2027-03-02T13:05:00Z'),
  details: { candidate: { name: 'Ada Lovelace', phone: '+4915112345678', ...(language ? { language } : {}) }, title: 'Onsite', timezone, location },
  reason: null,
  deliveryId: null,
  updatedAt: new Date('2027-03-01T00:00:00Z'),
});

describe('reminders: the interview reminder SMS in the candidate language', () => {
  it('English (no language, or one we do not speak) is GSM-7, one segment, with plain spaces only', () => {
    for (const language of [undefined, 'ja', 'not a tag']) {
      const text = reminderText(reminder(language, 'America/New_York', 'Room 4'));
      assert.equal(text, 'Hello Ada Lovelace, a reminder: "Onsite" starts Tuesday, March 2, 2027 at 9:05 AM (America/New_York). Where: Room 4.');
      assert.deepEqual(segmentSms(text), { encoding: 'GSM-7', units: text.length, segments: 1 });
    }
  });

  it('each language has its words and its date; no-break spaces from Intl never reach the text', () => {
    const expected: Record<string, RegExp> = {
      es: /^Hola, Ada Lovelace: te recordamos que «Onsite» empieza el martes, 2 de marzo de 2027, 15:05 \(Europe\/Madrid\)\.$/,
      fr: /^Bonjour Ada Lovelace, rappel : « Onsite » commence le mardi 2 mars 2027 à 15:05 \(Europe\/Madrid\)\.$/,
      de: /^Hallo Ada Lovelace, zur Erinnerung: „Onsite“ beginnt am Dienstag, 2\. März 2027 um 15:05 \(Europe\/Madrid\)\.$/,
      pt: /^Olá, Ada Lovelace: lembrete de que "Onsite" começa em terça-feira, 2 de março de 2027 às 15:05 \(Europe\/Madrid\)\.$/,
      ar: /^مرحبًا Ada Lovelace، تذكير: يبدأ "Onsite" في .*2027.* \(Europe\/Madrid\)\.$/u,
    };
    for (const [language, pattern] of Object.entries(expected)) {
      const text = reminderText(reminder(language, 'Europe/Madrid'));
      assert.match(text, pattern, language);
      assert.ok(!/[\u00a0\u202f]/.test(text), `${language}: no no-break space`);
    }
  });

  it('Arabic is UCS-2 and its segments are counted in UTF-16 units (70, then 67 each)', () => {
    const text = reminderText(reminder('ar', 'Asia/Riyadh', 'الرياض، مبنى ٣'));
    const segmentation = segmentSms(text);
    assert.equal(segmentation.encoding, 'UCS-2');
    assert.equal(segmentation.units, text.length);
    assert.equal(segmentation.segments, text.length <= 70 ? 1 : Math.ceil(text.length / 67));
    assert.ok(segmentation.segments >= 2, `${text.length} units: more than one UCS-2 segment`);
  });
});
