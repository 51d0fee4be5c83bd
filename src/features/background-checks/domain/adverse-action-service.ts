/**
 * The organization's FCRA adverse action on a check, step by step (the state machine in
 * adverse-action.ts decides what may happen): each notice goes to the candidate by email
 * through the organization's email connector as an action run, then the step is saved and
 * evented. A notice the connector refused leaves the check as it was.
 */
import { conflict } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import type { NotificationConnector } from '../../hooks/domain/connectors';
import { cancelAdverseAction, sendFinalAdverseAction, startPreAdverseAction, type AdverseAction } from './adverse-action';
import type { BackgroundCheck, BackgroundCheckRepository } from './background-check';
import type { BackgroundCheckService } from './background-check-service';

/** The CFPB's "A Summary of Your Rights Under the Fair Credit Reporting Act" (required with both notices). */
export const SUMMARY_OF_RIGHTS_URL = 'https://files.consumerfinance.gov/f/documents/bcfp_consumer-rights-summary_2018-09.pdf';

export class AdverseActionService {
  constructor(
    private readonly checks: BackgroundCheckService,
    private readonly repository: BackgroundCheckRepository,
    private readonly email: NotificationConnector,
    private readonly events: EventPublisher,
    private readonly now: () => Date,
  ) {}

  async start(organizationId: string, id: string, waitingBusinessDays?: number): Promise<BackgroundCheck> {
    const check = await this.checks.get(organizationId, id);
    const next = startPreAdverseAction(check.adverseAction, { status: check.reportStatus, result: check.reportResult }, this.now(), waitingBusinessDays);
    await this.notify(check, 'pre', next);
    return this.commit(check, next, 'adverse_action.pre_notice_sent');
  }

  async finish(organizationId: string, id: string): Promise<BackgroundCheck> {
    const check = await this.checks.get(organizationId, id);
    const next = sendFinalAdverseAction(check.adverseAction, this.now());
    await this.notify(check, 'final', next);
    return this.commit(check, next, 'adverse_action.final_notice_sent');
  }

  async cancel(organizationId: string, id: string): Promise<BackgroundCheck> {
    const check = await this.checks.get(organizationId, id);
    return this.commit(check, cancelAdverseAction(check.adverseAction, this.now()), 'adverse_action.cancelled');
  }

  private async commit(check: BackgroundCheck, adverseAction: AdverseAction, event: string): Promise<BackgroundCheck> {
    const next: BackgroundCheck = { ...check, adverseAction, updatedAt: this.now() };
    // Two calls at once: the first moves the stage, the second finds it moved.
    if (!(await this.repository.save(next, check.adverseAction.stage)))
      throw conflict('adverse_action_changed', 'The adverse action changed meanwhile: read the check again');
    await this.events.publish(
      event,
      check.organizationId,
      {
        background_check_id: check.id,
        check_id: check.hostCheckId,
        candidate_id: check.candidateId,
        report_id: check.reportId,
        stage: adverseAction.stage,
        pre_notice_at: adverseAction.preNoticeAt?.toISOString() ?? null,
        waiting_until: adverseAction.waitingUntil?.toISOString() ?? null,
        final_notice_at: adverseAction.finalNoticeAt?.toISOString() ?? null,
        cancelled_at: adverseAction.cancelledAt?.toISOString() ?? null,
      },
      { dedupeKey: `${event}:${check.organizationId}:${check.id}` },
    );
    return next;
  }

  private async notify(check: BackgroundCheck, which: 'pre' | 'final', state: AdverseAction): Promise<void> {
    const reference = `${check.connector} report ${check.reportId ?? '(none)'}`;
    const greeting = `Dear ${check.candidateName ?? 'candidate'},`;
    const text =
      which === 'pre'
        ? [
            greeting,
            '',
            'This is a pre-adverse action notice. Information in your background check report may lead us not to continue with your application.',
            `The report: ${reference}. The background check company that prepared it will give you a free copy on request.`,
            `You may dispute anything in the report that is inaccurate or incomplete, with the company that prepared it, before ${state.waitingUntil!.toISOString().slice(0, 10)}. No decision is final before then.`,
            '',
            `A Summary of Your Rights Under the Fair Credit Reporting Act: ${SUMMARY_OF_RIGHTS_URL}`,
          ].join('\n')
        : [
            greeting,
            '',
            'This is the final adverse action notice: based in whole or in part on your background check report, we have decided not to continue with your application.',
            `The report: ${reference}. The company that prepared it did not make this decision and cannot explain why it was made.`,
            'You have the right to a free copy of the report from that company within 60 days, and to dispute with it the accuracy or completeness of anything in it.',
            '',
            `A Summary of Your Rights Under the Fair Credit Reporting Act: ${SUMMARY_OF_RIGHTS_URL}`,
          ].join('\n');
    await this.email.sendEmail({
      organizationId: check.organizationId,
      actionKey: check.action,
      idempotencyKey: `adverse-action-${which}-${check.organizationId}-${check.id}`,
      to: { name: check.candidateName ?? check.candidateEmail, email: check.candidateEmail },
      subject: which === 'pre' ? 'Pre-adverse action notice about your background check' : 'Adverse action notice about your application',
      text,
    });
  }
}
