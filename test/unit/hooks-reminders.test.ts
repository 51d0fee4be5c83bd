/**
 * Interview reminders without I/O (in-memory row store, the in-process queue, fake
 * connectors): reminder time, idempotent scheduling, moving and removing the pending
 * job, and the delivery's checks (stale job, license re-check, send once).
 */
import { strict as assert } from 'node:assert';
import { EntitlementCache } from '../../src/features/licensing/domain/entitlement-cache';
import type { Delivery, EmailMessage, SmsMessage } from '../../src/features/hooks/domain/connectors';
import { HookGate } from '../../src/features/hooks/domain/hook-gate';
import {
  INTERVIEW_REMINDERS_QUEUE,
  InterviewReminders,
  ReminderDelivery,
  type InterviewReminder,
  type InterviewReminderRepository,
  type ReminderChannel,
} from '../../src/features/reminders/domain/interview-reminders';
import type { OutboxMessage } from '../../src/kernel/outbox';
import { isDomainError } from '../../src/kernel/errors';
import { InlineJobQueue } from '../../src/platform/queue/inline-queue';

const silent = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silent;
  },
};

/** Rows in memory; the messages saved with them go straight to the queue (what the outbox relay does). */
class MemoryReminders implements InterviewReminderRepository {
  readonly rows = new Map<string, InterviewReminder>();
  constructor(private readonly queue: () => InlineJobQueue) {}
  private key = (o: string, i: string, c: string) => `${o}|${i}|${c}`;
  async find(o: string, i: string, c: ReminderChannel) {
    const row = this.rows.get(this.key(o, i, c));
    return row ? structuredClone(row) : undefined;
  }
  async save(r: InterviewReminder, messages: readonly OutboxMessage[] = []) {
    this.rows.set(this.key(r.organizationId, r.interviewId, r.channel), structuredClone(r));
    for (const m of messages) await this.queue().add(m.queue, m.name, m.data, { jobId: m.jobId, delayMs: m.delayMs });
  }
  async insertNew(r: InterviewReminder, messages: readonly OutboxMessage[] = []) {
    if (this.rows.has(this.key(r.organizationId, r.interviewId, r.channel))) return false;
    await this.save(r, messages);
    return true;
  }
  async settle(
    o: string,
    i: string,
    c: ReminderChannel,
    jobId: string,
    change: { status: 'sent' | 'canceled' | 'skipped'; reason: string | null; deliveryId?: string; at: Date },
  ) {
    const row = this.rows.get(this.key(o, i, c));
    if (!row || row.jobId !== jobId || row.status !== 'scheduled') return false;
    Object.assign(row, { status: change.status, reason: change.reason, deliveryId: change.deliveryId ?? null, updatedAt: change.at });
    return true;
  }
  async listScheduled(o: string, c: ReminderChannel) {
    return [...this.rows.values()].filter((r) => r.organizationId === o && r.channel === c && r.status === 'scheduled');
  }
  async findScheduledByJob(o: string, jobId: string) {
    const row = [...this.rows.values()].find((r) => r.organizationId === o && r.jobId === jobId && r.status === 'scheduled');
    return row ? structuredClone(row) : undefined;
  }
  async reopenFailed(o: string, jobId: string, at: Date) {
    const row = [...this.rows.values()].find((r) => r.organizationId === o && r.jobId === jobId && r.status === 'failed');
    if (!row) return undefined;
    Object.assign(row, { status: 'scheduled', reason: null, updatedAt: at });
    return structuredClone(row);
  }
}

class RecordingConnectors {
  readonly sent: string[] = [];
  private readonly keys = new Set<string>();
  async sendEmail(m: EmailMessage): Promise<Delivery> {
    if (!this.keys.has(m.idempotencyKey)) this.sent.push(`email ${m.to.email} ${m.text}`);
    this.keys.add(m.idempotencyKey);
    return { deliveryId: `dlv_${m.idempotencyKey}` };
  }
  async sendSms(m: SmsMessage): Promise<Delivery> {
    if (!this.keys.has(m.idempotencyKey)) this.sent.push(`sms ${m.to}`);
    this.keys.add(m.idempotencyKey);
    return { deliveryId: `dlv_${m.idempotencyKey}` };
  }
}

const START = new Date('2030-03-01T09:00:00Z');
const details = { candidate: { name: 'Ada', email: 'ada@example.com', phone: '+14155550123' }, title: 'Onsite' };

describe('hooks: interview reminders', () => {
  let now: Date;
  let repo: MemoryReminders;
  let queue: InlineJobQueue;
  let reminders: InterviewReminders;
  let licensed: Set<string>;
  let connectors: RecordingConnectors;
  let delivery: ReminderDelivery;
  let cache: EntitlementCache;
  const events: string[] = [];

  beforeEach(() => {
    now = new Date('2030-03-01T06:00:00Z');
    repo = new MemoryReminders(() => queue);
    queue = new InlineJobQueue(new Map([[INTERVIEW_REMINDERS_QUEUE, { name: INTERVIEW_REMINDERS_QUEUE, concurrency: 1, attempts: 1, backoffMs: 0 }]]), silent);
    const clock = { now: () => now };
    reminders = new InterviewReminders(repo, queue, { nudge() {} }, { leadMinutes: 60 }, clock, silent);
    licensed = new Set(['org_a notifications.interview_reminder', 'org_a sms.interview_reminder']);
    cache = new EntitlementCache({ isActive: async (o, a) => licensed.has(`${o} ${a}`) }, { ttlMs: 60_000, maxEntries: 100 });
    connectors = new RecordingConnectors();
    events.length = 0;
    delivery = new ReminderDelivery(
      repo,
      new HookGate(cache, { recordGateCheck() {}, recordCacheHit() {} }),
      connectors,
      connectors,
      { publish: async (e) => void events.push(e) },
      clock,
      silent,
    );
  });
  afterEach(() => queue.close());

  it('schedules one delayed job REMINDER_LEAD_MINUTES before the interview, once however often the hook comes', async () => {
    const report = await reminders.schedule('org_a', 'email', 'int_1', START, details);
    assert.equal(report.remind_at, '2030-03-01T08:00:00.000Z');
    const jobId = report.job_id as string;
    assert.equal(jobId, 'reminder-email-org_a-int_1-1');
    const pending = await queue.pending(INTERVIEW_REMINDERS_QUEUE, jobId);
    assert.ok(pending);
    assert.equal(pending.runAt.getTime() - Date.now() <= 2 * 3600_000 + 1000, true);
    const again = await reminders.schedule('org_a', 'email', 'int_1', START, details);
    assert.equal(again.job_id, jobId);
    assert.equal(again.unchanged, true);
    assert.equal((await repo.find('org_a', 'int_1', 'email'))!.revision, 1);
  });

  it('sends at once when the reminder moment has passed, and refuses an interview in the past', async () => {
    now = new Date('2030-03-01T08:30:00Z');
    const report = await reminders.schedule('org_a', 'sms', 'int_1', START, details);
    assert.equal(report.remind_at, now.toISOString());
    now = new Date('2030-03-01T09:00:00Z');
    await assert.rejects(reminders.schedule('org_a', 'sms', 'int_2', START, details), (e: unknown) => isDomainError(e) && e.code === 'interview_in_past');
  });

  it('rescheduling removes the pending job and adds the next revision at the new time', async () => {
    const first = await reminders.schedule('org_a', 'email', 'int_1', START, details);
    const later = new Date('2030-03-02T09:00:00Z');
    const moved = await reminders.reschedule('org_a', 'email', 'int_1', later);
    assert.equal(moved.moved_from, first.job_id);
    assert.equal(moved.job_id, 'reminder-email-org_a-int_1-2');
    assert.equal(moved.remind_at, '2030-03-02T08:00:00.000Z');
    assert.equal(await queue.pending(INTERVIEW_REMINDERS_QUEUE, first.job_id as string), undefined, 'the old job is gone');
    assert.ok(await queue.pending(INTERVIEW_REMINDERS_QUEUE, moved.job_id as string));
    await assert.rejects(reminders.reschedule('org_a', 'email', 'int_9', later), (e: unknown) => isDomainError(e) && e.code === 'no_reminder');
  });

  it('cancelling removes the pending job; a canceled interview cannot be rescheduled', async () => {
    const first = await reminders.schedule('org_a', 'email', 'int_1', START, details);
    const canceled = await reminders.cancel('org_a', 'email', 'int_1');
    assert.equal(canceled.removed, true);
    assert.equal(await queue.pending(INTERVIEW_REMINDERS_QUEUE, first.job_id as string), undefined);
    assert.equal((await repo.find('org_a', 'int_1', 'email'))!.status, 'canceled');
    await assert.rejects(reminders.reschedule('org_a', 'email', 'int_1', START), (e: unknown) => isDomainError(e) && e.code === 'reminder_canceled');
  });

  it('delivery sends once for the current job, and a stale job (moved or canceled) sends nothing', async () => {
    const first = await reminders.schedule('org_a', 'email', 'int_1', START, details);
    const job = { organization_id: 'org_a', interview_id: 'int_1', channel: 'email' as const };
    const moved = await reminders.reschedule('org_a', 'email', 'int_1', new Date('2030-03-02T09:00:00Z'));
    assert.equal(await delivery.deliver(first.job_id as string, job), 'stale');
    assert.deepEqual(connectors.sent, []);
    assert.equal(await delivery.deliver(moved.job_id as string, job), 'sent');
    assert.equal(await delivery.deliver(moved.job_id as string, job), 'stale', 'a second run finds it sent');
    assert.equal(connectors.sent.length, 1);
    // The email template in the candidate's language (English by default), the time in the interview's zone (UTC when none).
    assert.match(connectors.sent[0]!, /^email ada@example.com Hello Ada,\na reminder: "Onsite" starts Saturday, March 2, 2030 at 9:00\sAM \(UTC\)\./);
    assert.deepEqual(events, ['interview.reminder_sent']);
    assert.equal((await repo.find('org_a', 'int_1', 'email'))!.status, 'sent');
  });

  it('delivery checks the license again: deactivated meanwhile, the reminder is skipped and nothing is sent', async () => {
    const report = await reminders.schedule('org_a', 'sms', 'int_1', START, details);
    licensed.delete('org_a sms.interview_reminder');
    cache.invalidate('org_a', 'sms.interview_reminder');
    assert.equal(await delivery.deliver(report.job_id as string, { organization_id: 'org_a', interview_id: 'int_1', channel: 'sms' }), 'unlicensed');
    assert.deepEqual(connectors.sent, []);
    const row = (await repo.find('org_a', 'int_1', 'sms'))!;
    assert.equal(row.status, 'skipped');
    assert.equal(row.reason, 'license_inactive');
  });

  it('cancelAllFor cancels the pending reminders of one channel', async () => {
    await reminders.schedule('org_a', 'sms', 'int_1', START, details);
    await reminders.schedule('org_a', 'sms', 'int_2', START, details);
    await reminders.schedule('org_a', 'email', 'int_1', START, details);
    assert.equal(await reminders.cancelAllFor('org_a', 'sms', 'license_deactivated'), 2);
    assert.equal((await repo.find('org_a', 'int_1', 'sms'))!.status, 'canceled');
    assert.equal((await repo.find('org_a', 'int_1', 'email'))!.status, 'scheduled');
  });

  it('a malformed job is final', async () => {
    await assert.rejects(delivery.deliver('x', { organization_id: 'org_a' } as never), /UnrecoverableJobError|without organization_id/);
  });
});
