/**
 * Queue `esign-reminders`: a repeating job (a BullMQ job scheduler every 15 minutes; a timer
 * when embedded) that sends the reminders to sign and the notices before expiry that are due.
 * Idempotent: each slot is claimed by one conditional UPDATE of the envelope (its last claimed
 * due time must be older), so two runs at once, or a retried run, send each slot once; the
 * messages' action runs and the `*.reminder_sent` event are keyed by the envelope and the slot
 * too. A slot whose mail server did not answer is given back and tried by the next run under
 * the same run key.
 */
import type { Disposer } from '../../../kernel/disposer';
import type { JobContext, JobProcessor } from '../../../kernel/job-queue';
import type { Logger } from '../../../kernel/logger';
import type { BullmqJobQueue } from '../../../platform/queue/bullmq-queue';
import { scheduleRepeatingJob } from '../../../platform/queue/repeating-job';
import type { Envelopes, ReminderReport } from '../domain/envelopes';

export const ENVELOPE_REMINDER_QUEUE = 'esign-reminders';
export const ENVELOPE_REMINDER_INTERVAL_MS = 15 * 60_000;

export class EnvelopeReminderProcessor implements JobProcessor<Record<string, never>> {
  readonly queue = ENVELOPE_REMINDER_QUEUE;

  constructor(private readonly envelopes: Envelopes) {}

  async process(_job: JobContext<Record<string, never>>): Promise<ReminderReport> {
    return this.envelopes.remindDue();
  }
}

export function scheduleEnvelopeReminders(processor: EnvelopeReminderProcessor, bullmq: BullmqJobQueue | undefined, logger: Logger): Promise<Disposer> {
  return scheduleRepeatingJob(
    { processor, schedulerId: ENVELOPE_REMINDER_QUEUE, jobName: 'remind', intervalMs: ENVELOPE_REMINDER_INTERVAL_MS, label: 'the e-signature reminder sweep' },
    bullmq,
    logger,
  );
}
