/**
 * Interview reminders by email (`notifications.interview_reminder`) and SMS
 * (`sms.interview_reminder`): one delayed job per interview and channel on the
 * `interview-reminders` queue, due REMINDER_LEAD_MINUTES before the interview (at once
 * when that moment has passed).
 *
 * The record (`hi_interview_reminders`, one row per organization, interview and channel)
 * is the truth; the job only says "look now". Its id is deterministic,
 * `reminder-<channel>-<organization>-<interview>-<revision>`: scheduling the same
 * interview twice adds one job, and rescheduling or cancelling finds the pending job
 * through the row, removes it and (rescheduling) adds the next revision. A job whose id
 * is no longer the row's, or whose row is no longer `scheduled`, does nothing, so even a
 * job that could not be removed (already running, or Redis unreachable) cannot send a
 * stale reminder. The row and its job's message are one write (the outbox), so a hook
 * handled while Redis is down still gets its reminder once Redis is back.
 */
import { inject, injectable } from 'tsyringe';
import { JOB_QUEUE, UnrecoverableJobError, type JobQueue } from '../../../kernel/job-queue';
import { OUTBOX_NOTIFIER, type OutboxMessage, type OutboxNotifier } from '../../../kernel/outbox';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { DomainError, invalid, isDomainError } from '../../../kernel/errors';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { NOTIFICATION_CONNECTOR, SMS_CONNECTOR, type Delivery, type NotificationConnector, type SmsConnector } from '../../hooks/domain/connectors';
import { HookGate } from '../../hooks/domain/hook-gate';
import type { HookHandlerReport } from '../../hooks/domain/hook-handler';
import { formatMoment, messageLanguage } from '../../messages/domain/message-language';
import { renderMessage } from '../../messages/domain/render-message';
import { fillReminderSms, REMINDER_SMS_STRINGS } from './reminder-sms-strings';

export const INTERVIEW_REMINDERS_QUEUE = 'interview-reminders';

export type ReminderChannel = 'email' | 'sms';

export const REMINDER_ACTIONS: Readonly<Record<ReminderChannel, string>> = {
  email: 'notifications.interview_reminder',
  sms: 'sms.interview_reminder',
};

export type ReminderStatus = 'scheduled' | 'sent' | 'canceled' | 'skipped' | 'failed';

export interface ReminderDetails {
  candidate: { name: string; email?: string; phone?: string; language?: string };
  title: string;
  timezone?: string;
  location?: string;
}

export interface InterviewReminder {
  organizationId: string;
  interviewId: string;
  channel: ReminderChannel;
  status: ReminderStatus;
  revision: number;
  jobId: string;
  startsAt: Date;
  remindAt: Date;
  details: ReminderDetails;
  reason: string | null;
  deliveryId: string | null;
  updatedAt: Date;
}

export interface InterviewReminderRepository {
  find(organizationId: string, interviewId: string, channel: ReminderChannel): Promise<InterviewReminder | undefined>;
  /** Inserts or replaces the row of (organization, interview, channel), with its job's message, atomically. */
  save(reminder: InterviewReminder, messages?: readonly OutboxMessage[]): Promise<void>;
  /** Inserts the row with its jobs' messages only if (organization, interview, channel) has none yet; false when it had one. */
  insertNew(reminder: InterviewReminder, messages: readonly OutboxMessage[]): Promise<boolean>;
  /** Moves the row to `status` if it is still `scheduled` under `jobId`; false when it was not. */
  settle(
    organizationId: string,
    interviewId: string,
    channel: ReminderChannel,
    jobId: string,
    change: { status: Exclude<ReminderStatus, 'scheduled'>; reason: string | null; deliveryId?: string; at: Date },
  ): Promise<boolean>;
  listScheduled(organizationId: string, channel: ReminderChannel): Promise<InterviewReminder[]>;
  /** The reminder still `scheduled` under `jobId` (a run of it looks stuck: the action-runs reconciler). */
  findScheduledByJob(organizationId: string, jobId: string): Promise<InterviewReminder | undefined>;
  /** A failed reminder whose run an organization retries: `failed` → `scheduled` under the same job id. */
  reopenFailed(organizationId: string, jobId: string, at: Date): Promise<InterviewReminder | undefined>;
}

export interface ReminderOptions {
  leadMinutes: number;
}

export interface ReminderJob {
  organization_id: string;
  interview_id: string;
  channel: ReminderChannel;
}

export const INTERVIEW_REMINDER_REPOSITORY = Symbol('InterviewReminderRepository');
export const REMINDER_OPTIONS = Symbol('ReminderOptions');

export const reminderJobId = (channel: ReminderChannel, organizationId: string, interviewId: string, revision: number) =>
  `reminder-${channel}-${organizationId}-${interviewId}-${revision}`;

const noReminder = (interviewId: string, channel: ReminderChannel) =>
  new DomainError('not_found', 'no_reminder', `No ${channel} reminder was scheduled for interview '${interviewId}'`);

@injectable()
export class InterviewReminders {
  constructor(
    @inject(INTERVIEW_REMINDER_REPOSITORY) private readonly reminders: InterviewReminderRepository,
    @inject(JOB_QUEUE) private readonly queue: JobQueue,
    @inject(OUTBOX_NOTIFIER) private readonly outbox: OutboxNotifier,
    @inject(REMINDER_OPTIONS) private readonly options: ReminderOptions,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  async schedule(organizationId: string, channel: ReminderChannel, interviewId: string, startsAt: Date, details: ReminderDetails): Promise<HookHandlerReport> {
    const now = this.clock.now();
    if (startsAt.getTime() <= now.getTime())
      throw invalid('interview_in_past', `The interview starts at ${startsAt.toISOString()}, which has passed`, 'starts_at');
    return this.scheduleAfter(organizationId, channel, interviewId, startsAt, details, now, undefined);
  }

  /**
   * `known`: the row as the caller just read it (a reschedule); undefined: not read yet. An
   * interview seen for the first time (the usual case) is one statement: the row is inserted
   * with its job only if there is none; otherwise the row is read and replaced as below.
   */
  private async scheduleAfter(
    organizationId: string,
    channel: ReminderChannel,
    interviewId: string,
    startsAt: Date,
    details: ReminderDetails,
    now: Date,
    known: InterviewReminder | undefined,
  ): Promise<HookHandlerReport> {
    if (!known) {
      const first = this.draft(organizationId, channel, interviewId, startsAt, details, 1, now);
      if (await this.reminders.insertNew(first, [this.message(first, now)])) {
        this.outbox.nudge();
        return this.report(first, {});
      }
    }
    const existing = known ?? (await this.reminders.find(organizationId, interviewId, channel));
    // The same hook again (a host retry): its job is already on its way (the outbox).
    if (existing && existing.startsAt.getTime() === startsAt.getTime() && (existing.status === 'scheduled' || existing.status === 'sent')) {
      return this.report(existing, { unchanged: true });
    }
    const reminder = this.draft(organizationId, channel, interviewId, startsAt, details, (existing?.revision ?? 0) + 1, now);
    // The row first: from here on the old job (if it still runs) finds itself stale.
    await this.reminders.save(reminder, [this.message(reminder, now)]);
    this.outbox.nudge();
    let movedFrom: string | undefined;
    if (existing?.status === 'scheduled') {
      await this.removeJob(existing.jobId);
      movedFrom = existing.jobId;
    }
    return this.report(reminder, movedFrom ? { moved_from: movedFrom } : {});
  }

  /** Moves the reminder to the interview's new time (the details stay those scheduled). */
  async reschedule(organizationId: string, channel: ReminderChannel, interviewId: string, startsAt: Date): Promise<HookHandlerReport> {
    const existing = await this.reminders.find(organizationId, interviewId, channel);
    if (!existing) throw noReminder(interviewId, channel);
    if (existing.status === 'canceled') throw new DomainError('conflict', 'reminder_canceled', `The interview '${interviewId}' was canceled`);
    const now = this.clock.now();
    if (startsAt.getTime() <= now.getTime())
      throw invalid('interview_in_past', `The interview starts at ${startsAt.toISOString()}, which has passed`, 'starts_at');
    return this.scheduleAfter(organizationId, channel, interviewId, startsAt, existing.details, now, existing);
  }

  private draft(
    organizationId: string,
    channel: ReminderChannel,
    interviewId: string,
    startsAt: Date,
    details: ReminderDetails,
    revision: number,
    now: Date,
  ): InterviewReminder {
    return {
      organizationId,
      interviewId,
      channel,
      status: 'scheduled',
      revision,
      jobId: reminderJobId(channel, organizationId, interviewId, revision),
      startsAt,
      remindAt: new Date(Math.max(now.getTime(), startsAt.getTime() - this.options.leadMinutes * 60_000)),
      details,
      reason: null,
      deliveryId: null,
      updatedAt: now,
    };
  }

  async cancel(organizationId: string, channel: ReminderChannel, interviewId: string, reason = 'interview_canceled'): Promise<HookHandlerReport> {
    const existing = await this.reminders.find(organizationId, interviewId, channel);
    if (!existing) throw noReminder(interviewId, channel);
    if (existing.status !== 'scheduled') return { channel, job_id: existing.jobId, status: existing.status, removed: false };
    await this.reminders.settle(organizationId, interviewId, channel, existing.jobId, { status: 'canceled', reason, at: this.clock.now() });
    const removed = await this.removeJob(existing.jobId);
    return { channel, job_id: existing.jobId, status: 'canceled', removed };
  }

  /**
   * The organization no longer holds the channel's action: its pending reminders are
   * canceled, so that activating the license again later does not send reminders of
   * interviews whose cancellation arrived (and was skipped) meanwhile.
   */
  async cancelAllFor(organizationId: string, channel: ReminderChannel, reason: string): Promise<number> {
    let count = 0;
    for (const reminder of await this.reminders.listScheduled(organizationId, channel)) {
      await this.reminders.settle(organizationId, reminder.interviewId, channel, reminder.jobId, { status: 'canceled', reason, at: this.clock.now() });
      await this.removeJob(reminder.jobId);
      count += 1;
    }
    return count;
  }

  private message(reminder: InterviewReminder, now: Date): OutboxMessage {
    const job: ReminderJob = { organization_id: reminder.organizationId, interview_id: reminder.interviewId, channel: reminder.channel };
    return {
      queue: INTERVIEW_REMINDERS_QUEUE,
      name: 'remind',
      data: job,
      jobId: reminder.jobId,
      delayMs: Math.max(0, reminder.remindAt.getTime() - now.getTime()),
    };
  }

  /**
   * Removing a superseded job only saves it a wake-up: the row already makes it stale. So
   * a queue that cannot be reached (Redis down) does not fail the hook.
   */
  private async removeJob(jobId: string): Promise<boolean> {
    try {
      return await this.queue.remove(INTERVIEW_REMINDERS_QUEUE, jobId);
    } catch (error) {
      this.logger.warn({ jobId, err: (error as Error).message }, 'a superseded reminder job could not be removed; it will find itself stale');
      return false;
    }
  }

  private report(reminder: InterviewReminder, extra: HookHandlerReport): HookHandlerReport {
    return {
      channel: reminder.channel,
      job_id: reminder.jobId,
      remind_at: reminder.remindAt.toISOString(),
      starts_at: reminder.startsAt.toISOString(),
      ...extra,
    };
  }
}

export type ReminderDeliveryOutcome = 'sent' | 'stale' | 'unlicensed' | 'failed';

/** What the reminder job does when it is due (src/features/reminders/jobs/interview-reminder.ts). */
@injectable()
export class ReminderDelivery {
  constructor(
    @inject(INTERVIEW_REMINDER_REPOSITORY) private readonly reminders: InterviewReminderRepository,
    @inject(HookGate) private readonly gate: HookGate,
    @inject(NOTIFICATION_CONNECTOR) private readonly email: NotificationConnector,
    @inject(SMS_CONNECTOR) private readonly sms: SmsConnector,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  async deliver(jobId: string, job: ReminderJob): Promise<ReminderDeliveryOutcome> {
    const { organization_id: organizationId, interview_id: interviewId, channel } = job ?? ({} as ReminderJob);
    if (typeof organizationId !== 'string' || typeof interviewId !== 'string' || (channel !== 'email' && channel !== 'sms')) {
      throw new UnrecoverableJobError('interview-reminders job without organization_id, interview_id and channel');
    }
    const reminder = await this.reminders.find(organizationId, interviewId, channel);
    if (!reminder || reminder.jobId !== jobId || reminder.status !== 'scheduled') return 'stale';
    const action = REMINDER_ACTIONS[channel];
    // The license may have been deactivated since the reminder was scheduled.
    if (!(await this.gate.allows(organizationId, action))) {
      await this.reminders.settle(organizationId, interviewId, channel, jobId, { status: 'skipped', reason: 'license_inactive', at: this.clock.now() });
      this.logger.info({ organizationId, interviewId, channel, action, reason: 'license_inactive' }, 'interview reminder skipped');
      return 'unlicensed';
    }
    const candidate = reminder.details.candidate;
    let delivery: Delivery;
    try {
      delivery =
        channel === 'email'
          ? await this.email.sendEmail({
              organizationId,
              actionKey: action,
              idempotencyKey: jobId,
              to: { name: candidate.name, email: candidate.email! },
              ...reminderEmail(reminder),
            })
          : await this.sms.sendSms({ organizationId, actionKey: action, idempotencyKey: jobId, to: candidate.phone!, text: reminderText(reminder) });
    } catch (error) {
      // Transient trouble retries with the queue's backoff; a refusal (no connection, bad
      // credentials, a rejected recipient) fails the reminder: never `sent` when nothing left.
      if (!isDomainError(error) || error.kind === 'upstream') throw error;
      await this.reminders.settle(organizationId, interviewId, channel, jobId, { status: 'failed', reason: error.code, at: this.clock.now() });
      this.logger.warn({ organizationId, interviewId, channel, action, reason: error.code }, 'interview reminder failed');
      return 'failed';
    }
    const settled = await this.reminders.settle(organizationId, interviewId, channel, jobId, {
      status: 'sent',
      reason: null,
      deliveryId: delivery.deliveryId,
      at: this.clock.now(),
    });
    if (settled) {
      await this.events
        .publish(
          'interview.reminder_sent',
          organizationId,
          {
            interview_id: interviewId,
            channel,
            delivery_id: delivery.deliveryId,
            reference: delivery.reference ?? null,
            livemode: delivery.livemode ?? true,
            starts_at: reminder.startsAt.toISOString(),
          },
          { dedupeKey: `interview.reminder_sent:${jobId}` },
        )
        .catch((error: Error) => this.logger.warn({ organizationId, interviewId, err: error.message }, 'publishing interview.reminder_sent failed'));
    }
    return 'sent';
  }
}

/**
 * The SMS reminder in the candidate's language, the time in the interview's time zone.
 * Intl may separate with no-break spaces (U+00A0, U+202F, newer ICU data), which are not
 * GSM-7: they become plain spaces so an English reminder is not forced into UCS-2.
 */
export function reminderText(reminder: InterviewReminder): string {
  const { candidate, title, timezone, location } = reminder.details;
  const language = messageLanguage(candidate.language);
  const strings = REMINDER_SMS_STRINGS[language.locale];
  const when = formatMoment(reminder.startsAt, language, timezone).replace(/[\u00a0\u202f]/g, ' ');
  const params = { name: candidate.name, title, when, location: location ?? '' };
  return [fillReminderSms(strings.body, params), location ? fillReminderSms(strings.where, params) : ''].filter(Boolean).join(' ');
}

/** The email reminder in the candidate's language, the time in the interview's time zone. */
export function reminderEmail(reminder: InterviewReminder) {
  const { candidate, title, timezone, location } = reminder.details;
  const language = messageLanguage(candidate.language);
  return renderMessage('interview_reminder', language, { name: candidate.name, title, when: formatMoment(reminder.startsAt, language, timezone), location });
}
