/**
 * `interview.scheduled` / `interview.rescheduled` / `interview.canceled` for the two
 * reminder actions. Each channel is its own handler, gated by its own action, so an
 * organization with only SMS reminders gets only SMS reminders.
 */
import { inject } from 'tsyringe';
import { invalid } from '../../../kernel/errors';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import { InterviewReminders, REMINDER_ACTIONS, type ReminderChannel } from './interview-reminders';
import { interviewCanceled, interviewRescheduled, interviewScheduled } from '../../hooks/domain/payloads';

abstract class ScheduleReminder implements GatedHookHandler {
  protected abstract readonly channel: ReminderChannel;
  constructor(protected readonly reminders: InterviewReminders) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const interview = parsePayload(interviewScheduled, payload);
    const { candidate } = interview;
    if (this.channel === 'email' && !candidate.email) throw invalid('invalid_payload', 'candidate.email: required for an email reminder', 'candidate.email');
    if (this.channel === 'sms' && !candidate.phone) throw invalid('invalid_payload', 'candidate.phone: required for an SMS reminder', 'candidate.phone');
    return this.reminders.schedule(organizationId, this.channel, interview.interview_id, new Date(interview.starts_at), {
      candidate: { name: candidate.name, ...(candidate.email ? { email: candidate.email } : {}), ...(candidate.phone ? { phone: candidate.phone } : {}) },
      title: interview.title,
      ...(interview.timezone ? { timezone: interview.timezone } : {}),
      ...(interview.location ? { location: interview.location } : {}),
    });
  }
}

@HookHandlerFor({
  name: 'interview-reminder',
  hook: 'interview.scheduled',
  action: REMINDER_ACTIONS.email,
  description: 'Schedules an email reminder to the candidate (delayed job on interview-reminders, REMINDER_LEAD_MINUTES before the interview)',
})
export class InterviewReminderHandler extends ScheduleReminder {
  protected readonly channel = 'email';
  constructor(@inject(InterviewReminders) reminders: InterviewReminders) {
    super(reminders);
  }
}

@HookHandlerFor({
  name: 'sms-interview-reminder',
  hook: 'interview.scheduled',
  action: REMINDER_ACTIONS.sms,
  description: 'Schedules an SMS reminder to the candidate (delayed job on interview-reminders, REMINDER_LEAD_MINUTES before the interview)',
})
export class SmsInterviewReminderHandler extends ScheduleReminder {
  protected readonly channel = 'sms';
  constructor(@inject(InterviewReminders) reminders: InterviewReminders) {
    super(reminders);
  }
}

abstract class RescheduleReminder implements GatedHookHandler {
  protected abstract readonly channel: ReminderChannel;
  constructor(protected readonly reminders: InterviewReminders) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const { interview_id, starts_at } = parsePayload(interviewRescheduled, payload);
    return this.reminders.reschedule(organizationId, this.channel, interview_id, new Date(starts_at));
  }
}

@HookHandlerFor({
  name: 'interview-reminder-reschedule',
  hook: 'interview.rescheduled',
  action: REMINDER_ACTIONS.email,
  description: 'Moves the pending email reminder to the new interview time',
})
export class InterviewReminderRescheduleHandler extends RescheduleReminder {
  protected readonly channel = 'email';
  constructor(@inject(InterviewReminders) reminders: InterviewReminders) {
    super(reminders);
  }
}

@HookHandlerFor({
  name: 'sms-interview-reminder-reschedule',
  hook: 'interview.rescheduled',
  action: REMINDER_ACTIONS.sms,
  description: 'Moves the pending SMS reminder to the new interview time',
})
export class SmsInterviewReminderRescheduleHandler extends RescheduleReminder {
  protected readonly channel = 'sms';
  constructor(@inject(InterviewReminders) reminders: InterviewReminders) {
    super(reminders);
  }
}

abstract class CancelReminder implements GatedHookHandler {
  protected abstract readonly channel: ReminderChannel;
  constructor(protected readonly reminders: InterviewReminders) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const { interview_id } = parsePayload(interviewCanceled, payload);
    return this.reminders.cancel(organizationId, this.channel, interview_id);
  }
}

@HookHandlerFor({
  name: 'interview-reminder-cancel',
  hook: 'interview.canceled',
  action: REMINDER_ACTIONS.email,
  description: 'Removes the pending email reminder',
})
export class InterviewReminderCancelHandler extends CancelReminder {
  protected readonly channel = 'email';
  constructor(@inject(InterviewReminders) reminders: InterviewReminders) {
    super(reminders);
  }
}

@HookHandlerFor({
  name: 'sms-interview-reminder-cancel',
  hook: 'interview.canceled',
  action: REMINDER_ACTIONS.sms,
  description: 'Removes the pending SMS reminder',
})
export class SmsInterviewReminderCancelHandler extends CancelReminder {
  protected readonly channel = 'sms';
  constructor(@inject(InterviewReminders) reminders: InterviewReminders) {
    super(reminders);
  }
}
