/**
 * Queue `call-sheet-reminders`: at a production day's `confirm_by`, reminds everyone whose
 * call sheet is still unconfirmed. Idempotent: one job per day (deterministic id); a sheet
 * is reminded once (`reminded_at`), and each message is an action run keyed by the day and
 * person, so a retried job never sends twice. Connector trouble retries with the queue's backoff.
 */
import { inject, injectable } from 'tsyringe';
import { UnrecoverableJobError, type JobContext, type JobProcessor } from '../../../kernel/job-queue';
import { CALL_SHEET_REMINDERS_QUEUE, type CallSheetReminderJob } from '../domain/call-sheet';
import { CallSheets } from '../domain/call-sheets';

@injectable()
export class CallSheetReminderProcessor implements JobProcessor<CallSheetReminderJob> {
  readonly queue = CALL_SHEET_REMINDERS_QUEUE;

  constructor(@inject(CallSheets) private readonly sheets: CallSheets) {}

  async process(job: JobContext<CallSheetReminderJob>): Promise<{ reminded: number }> {
    const { organization_id, production_day_id } = job.data ?? ({} as CallSheetReminderJob);
    if (typeof organization_id !== 'string' || typeof production_day_id !== 'string') {
      throw new UnrecoverableJobError('call-sheet-reminders job without organization_id and production_day_id');
    }
    return { reminded: await this.sheets.remind({ organization_id, production_day_id }) };
  }
}
