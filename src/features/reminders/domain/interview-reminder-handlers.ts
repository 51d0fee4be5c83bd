/**
 * `interview.scheduled` / `interview.rescheduled` / `interview.canceled` for the two
 * reminder actions: one handler, parameterized by channel and hook. Each (channel, hook)
 * pair is its own registration gated by its own action, so an organization with only SMS
 * reminders gets only SMS reminders.
 */
import { invalid } from '../../../kernel/errors';
import { parsePayload, type GatedHookHandler, type HookHandlerDeclaration, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import { interviewCanceled, interviewRescheduled, interviewScheduled } from '../../hooks/domain/payloads';
import { InterviewReminders, REMINDER_ACTIONS, type ReminderChannel } from './interview-reminders';

export type ReminderHook = 'interview.scheduled' | 'interview.rescheduled' | 'interview.canceled';

export class InterviewReminderHookHandler implements GatedHookHandler {
  constructor(
    private readonly reminders: InterviewReminders,
    private readonly channel: ReminderChannel,
    private readonly hook: ReminderHook,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    if (this.hook === 'interview.rescheduled') {
      const { interview_id, starts_at } = parsePayload(interviewRescheduled, payload);
      return this.reminders.reschedule(organizationId, this.channel, interview_id, new Date(starts_at));
    }
    if (this.hook === 'interview.canceled') {
      const { interview_id } = parsePayload(interviewCanceled, payload);
      return this.reminders.cancel(organizationId, this.channel, interview_id);
    }
    const interview = parsePayload(interviewScheduled, payload);
    const { candidate } = interview;
    if (this.channel === 'email' && !candidate.email) throw invalid('invalid_payload', 'candidate.email: required for an email reminder', 'candidate.email');
    if (this.channel === 'sms' && !candidate.phone) throw invalid('invalid_payload', 'candidate.phone: required for an SMS reminder', 'candidate.phone');
    return this.reminders.schedule(organizationId, this.channel, interview.interview_id, new Date(interview.starts_at), {
      candidate: {
        name: candidate.name,
        ...(candidate.email ? { email: candidate.email } : {}),
        ...(candidate.phone ? { phone: candidate.phone } : {}),
        ...(candidate.language ? { language: candidate.language } : {}),
      },
      title: interview.title,
      ...(interview.timezone ? { timezone: interview.timezone } : {}),
      ...(interview.location ? { location: interview.location } : {}),
    });
  }
}

export interface ReminderHookDeclaration extends HookHandlerDeclaration {
  channel: ReminderChannel;
  hook: ReminderHook;
}

const CHANNEL_WORD: Record<ReminderChannel, string> = { email: 'email', sms: 'SMS' };
/** Handler names as plugin.manifest.json has them: the email channel unprefixed (it came first), SMS with `sms-`. */
const namePrefix = (channel: ReminderChannel) => (channel === 'email' ? '' : `${channel}-`);
const HOOKS: readonly { hook: ReminderHook; suffix: string; describe: (channel: string) => string }[] = [
  {
    hook: 'interview.scheduled',
    suffix: '',
    describe: (c) => `Schedules an ${c} reminder to the candidate (delayed job on interview-reminders, REMINDER_LEAD_MINUTES before the interview)`,
  },
  { hook: 'interview.rescheduled', suffix: '-reschedule', describe: (c) => `Moves the pending ${c} reminder to the new interview time` },
  { hook: 'interview.canceled', suffix: '-cancel', describe: (c) => `Removes the pending ${c} reminder` },
];

/** Every (channel, hook) registration, in the manifest's order. */
export const REMINDER_HOOKS: readonly ReminderHookDeclaration[] = HOOKS.flatMap(({ hook, suffix, describe }) =>
  (['email', 'sms'] as const).map((channel) => ({
    name: `${namePrefix(channel)}interview-reminder${suffix}`,
    hook,
    channel,
    action: REMINDER_ACTIONS[channel],
    description: describe(CHANNEL_WORD[channel]),
    // Scheduling is where the reminder's connector is needed (a reschedule or cancel sends nothing).
    ...(hook === 'interview.scheduled' ? { steps: [channel] } : {}),
  })),
);
