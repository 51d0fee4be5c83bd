/**
 * FCRA adverse action as a state machine, pure. A report the vendor marked `consider` may
 * lead the organization to decide against the person; the law wants, in this order:
 *   1. a pre-adverse action notice (with a copy of the report and the Summary of Rights);
 *   2. a waiting period (here at least 5 business days) for the person to dispute;
 *   3. the final adverse action notice — or the organization cancels instead.
 * Nothing else moves: no final notice before the period ends, nothing after a final notice
 * or a cancellation, no process for a report that is not `complete` and `consider`.
 */
import { conflict, invalid } from '../../../kernel/errors';
import { addBusinessDays } from './business-days';

export const MIN_WAITING_BUSINESS_DAYS = 5;
export const MAX_WAITING_BUSINESS_DAYS = 30;

export type AdverseActionStage = 'none' | 'pre_notice_sent' | 'final_notice_sent' | 'cancelled';

export interface AdverseAction {
  stage: AdverseActionStage;
  preNoticeAt: Date | null;
  /** The earliest instant the final notice may go out. */
  waitingUntil: Date | null;
  finalNoticeAt: Date | null;
  cancelledAt: Date | null;
}

export const NO_ADVERSE_ACTION: AdverseAction = { stage: 'none', preNoticeAt: null, waitingUntil: null, finalNoticeAt: null, cancelledAt: null };

/** What the vendor's report says, as far as adverse action cares. */
export interface ReportVerdict {
  status: string | null;
  result: 'clear' | 'consider' | null;
}

export function startPreAdverseAction(
  current: AdverseAction,
  report: ReportVerdict,
  now: Date,
  waitingBusinessDays = MIN_WAITING_BUSINESS_DAYS,
): AdverseAction {
  if (!Number.isInteger(waitingBusinessDays) || waitingBusinessDays < MIN_WAITING_BUSINESS_DAYS || waitingBusinessDays > MAX_WAITING_BUSINESS_DAYS)
    throw invalid(
      'waiting_period_invalid',
      `The waiting period is ${MIN_WAITING_BUSINESS_DAYS} to ${MAX_WAITING_BUSINESS_DAYS} business days`,
      'waiting_business_days',
    );
  if (report.status !== 'complete' || report.result !== 'consider')
    throw conflict('report_not_actionable', 'Adverse action needs a complete report whose result is consider');
  if (current.stage !== 'none') throw conflict('adverse_action_already_started', `Adverse action is already ${current.stage}`);
  return { ...NO_ADVERSE_ACTION, stage: 'pre_notice_sent', preNoticeAt: now, waitingUntil: addBusinessDays(now, waitingBusinessDays) };
}

export function sendFinalAdverseAction(current: AdverseAction, now: Date): AdverseAction {
  if (current.stage !== 'pre_notice_sent') throw conflict('adverse_action_not_pending', `No pre-adverse notice awaits a final notice (stage ${current.stage})`);
  if (now.getTime() < current.waitingUntil!.getTime())
    throw conflict('waiting_period_running', `The waiting period runs until ${current.waitingUntil!.toISOString()}`);
  return { ...current, stage: 'final_notice_sent', finalNoticeAt: now };
}

export function cancelAdverseAction(current: AdverseAction, now: Date): AdverseAction {
  if (current.stage !== 'pre_notice_sent')
    throw conflict('adverse_action_not_pending', `Only a pending adverse action can be cancelled (stage ${current.stage})`);
  return { ...current, stage: 'cancelled', cancelledAt: now };
}
