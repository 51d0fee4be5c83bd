/**
 * payroll.time_tracking: placements, weekly timesheets, submission to the client's contact
 * (an email with a signed link, sent as an action run) and the contact's decision on the
 * link's page, published as `timesheet.approved` / `timesheet.rejected`.
 */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { DomainError, forbidden, notFound } from '../../../kernel/errors';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { newId } from '../../../kernel/ids';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { HookGate } from '../../hooks/domain/hook-gate';
import { NOTIFICATION_CONNECTOR, type NotificationConnector } from '../../hooks/domain/connectors';
import { MESSAGE_LINK_KEY, SignedLinks } from '../../messages/domain/signed-links';
import { amountFor, hoursOf, splitHours } from './overtime';
import type { Placement } from './placement';
import {
  TIMESHEET_APPROVAL_LISTENERS,
  TIMESHEET_OPTIONS,
  TIMESHEET_REPOSITORY,
  TimesheetApprovalListeners,
  type TimesheetOptions,
  type TimesheetRepository,
} from './ports';
import { isEditable, requireTimesheetTransition, TIME_TRACKING_ACTION, type TimeEntry, type Timesheet, type TimesheetStatus } from './timesheet';
import { addDays, workedDays } from './worked-days';

/** The approval link stays valid 30 days (a contact back from holiday can still decide). */
const LINK_LIFETIME_MS = 30 * 24 * 3600_000;

/** What the host states for a placement: the placement without what the plugin assigns (and the worker's email optional). */
export type PlacementInput = Omit<Placement, 'id' | 'organizationId' | 'createdAt' | 'workerEmail'> & { workerEmail?: string };

@injectable()
export class TimesheetService {
  private readonly links: SignedLinks;

  constructor(
    @inject(TIMESHEET_REPOSITORY) private readonly repository: TimesheetRepository,
    @inject(NOTIFICATION_CONNECTOR) private readonly email: NotificationConnector,
    @inject(HookGate) private readonly gate: HookGate,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(TIMESHEET_OPTIONS) private readonly options: TimesheetOptions,
    @inject(MESSAGE_LINK_KEY) linkKey: Buffer,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(TIMESHEET_APPROVAL_LISTENERS) private readonly approvalListeners: TimesheetApprovalListeners,
  ) {
    this.links = new SignedLinks(linkKey);
  }

  async createPlacement(organizationId: string, input: PlacementInput): Promise<Placement> {
    await this.requireLicense(organizationId);
    const placement: Placement = { id: newId('plc'), organizationId, ...input, workerEmail: input.workerEmail ?? null, createdAt: this.clock.now() };
    await this.repository.insertPlacement(placement);
    return placement;
  }

  async placement(organizationId: string, id: string): Promise<Placement> {
    const placement = await this.repository.placement(organizationId, id);
    if (!placement) throw notFound('placement', id);
    return placement;
  }

  /** A draft for the placement's week; the same week again is a conflict naming the existing timesheet. */
  async create(organizationId: string, input: { placementId: string; periodStart: string; entries: TimeEntry[] }): Promise<Timesheet> {
    await this.requireLicense(organizationId);
    const placement = await this.placement(organizationId, input.placementId);
    const computed = this.compute(placement, input.periodStart, input.entries);
    const { timesheet, created } = await this.repository.claimTimesheet({
      id: newId('tms'),
      organizationId,
      placementId: placement.id,
      periodStart: input.periodStart,
      periodEnd: addDays(input.periodStart, 6),
      status: 'draft',
      entries: input.entries,
      ...computed,
      currency: placement.currency,
      submittedAt: null,
      decidedAt: null,
      decisionNote: null,
      reviewRunId: null,
      invoiceId: null,
      createdAt: this.clock.now(),
    });
    if (!created) {
      throw new DomainError('conflict', 'timesheet_exists', `The placement already has timesheet ${timesheet.id} for the week of ${input.periodStart}`);
    }
    return timesheet;
  }

  async get(organizationId: string, id: string): Promise<Timesheet> {
    const timesheet = await this.repository.timesheet(organizationId, id);
    if (!timesheet) throw notFound('timesheet', id);
    return timesheet;
  }

  list(organizationId: string, filter: { status?: TimesheetStatus; placementId?: string; limit: number; startingAfter?: string }): Promise<Timesheet[]> {
    return this.repository.list(organizationId, filter);
  }

  /** Replaces the entries of a draft or rejected timesheet. */
  async replaceEntries(organizationId: string, id: string, entries: TimeEntry[]): Promise<Timesheet> {
    const timesheet = await this.get(organizationId, id);
    if (!isEditable(timesheet)) requireTimesheetTransition(timesheet, 'draft');
    const placement = await this.placement(organizationId, timesheet.placementId);
    const computed = this.compute(placement, timesheet.periodStart, entries);
    if (!(await this.repository.update(id, ['draft', 'rejected'], { entries, ...computed }))) return this.replaceEntries(organizationId, id, entries);
    return { ...timesheet, entries, ...computed };
  }

  /**
   * Sends the client's contact the approval link (an action run keyed by the submission, so
   * a retried submit sends one email), then marks the timesheet submitted. When the email
   * cannot go, nothing changes and the caller gets the run's code.
   */
  async submit(organizationId: string, id: string): Promise<Timesheet> {
    const timesheet = await this.get(organizationId, id);
    await this.requireLicense(organizationId);
    if (timesheet.status === 'submitted') return timesheet;
    requireTimesheetTransition(timesheet, 'submitted');
    if (timesheet.entries.length === 0) throw new DomainError('conflict', 'timesheet_empty', 'A timesheet without entries cannot be submitted');
    const placement = await this.placement(organizationId, timesheet.placementId);
    const submission = (await this.repository.submissions(id)) + 1;
    const url = this.reviewUrl(timesheet, submission);
    const hours = hoursOf(timesheet.split.regular + timesheet.split.overtime + timesheet.split.doubleTime);
    const subject = `Timesheet to approve: ${placement.workerName}, week of ${timesheet.periodStart}`;
    const text = [
      `Hello ${placement.clientContactName},`,
      '',
      `${placement.workerName} worked ${hours} hours for ${placement.clientName} in the week of ${timesheet.periodStart} to ${timesheet.periodEnd}.`,
      'Please review the shifts and approve or reject them (with a note) here:',
      url,
      '',
      'The link is valid for 30 days.',
    ].join('\n');
    const delivery = await this.email.sendEmail({
      organizationId,
      actionKey: TIME_TRACKING_ACTION,
      idempotencyKey: `timesheet-review-${organizationId}-${id}-${submission}`,
      to: { name: placement.clientContactName, email: placement.clientContactEmail },
      subject,
      text,
    });
    const now = this.clock.now();
    const change = { status: 'submitted' as const, submittedAt: now, decidedAt: null, decisionNote: null, reviewRunId: delivery.deliveryId };
    if (await this.repository.update(id, ['draft', 'rejected'], change)) await this.repository.incrementSubmissions(id);
    return (await this.repository.timesheet(organizationId, id))!;
  }

  /** The timesheet and placement behind an approval link (400 link_invalid, 410 link_expired or superseded, 404 once erased). */
  async review(token: string): Promise<{ timesheet: Timesheet; placement: Placement }> {
    const claims = this.links.verify(token, 'timesheet_review', this.clock.now());
    const [timesheetId, submission] = claims.r.split(':');
    const timesheet = await this.repository.timesheet(claims.o, timesheetId ?? '');
    if (!timesheet) throw new DomainError('not_found', 'link_not_found', 'Nothing is behind this link any more (the record was erased)');
    if (Number(submission) !== (await this.repository.submissions(timesheet.id))) {
      throw new DomainError('gone', 'link_superseded', 'This timesheet was changed and submitted again: use the newest link');
    }
    const placement = await this.placement(claims.o, timesheet.placementId);
    return { timesheet, placement };
  }

  /** The contact's decision: once; a second decision on the same submission is refused. */
  async decide(token: string, decision: 'approve' | 'reject', note: string | null): Promise<{ timesheet: Timesheet; placement: Placement }> {
    const { timesheet, placement } = await this.review(token);
    if (timesheet.status !== 'submitted') return { timesheet, placement };
    const to = decision === 'approve' ? 'approved' : 'rejected';
    const at = this.clock.now();
    if (!(await this.repository.update(timesheet.id, ['submitted'], { status: to, decidedAt: at, decisionNote: note }))) return this.review(token);
    const decided: Timesheet = { ...timesheet, status: to, decidedAt: at, decisionNote: note };
    const base = {
      timesheet_id: timesheet.id,
      placement_id: placement.id,
      worker_id: placement.workerId,
      client_company_id: placement.clientCompanyId,
      period_start: timesheet.periodStart,
      period_end: timesheet.periodEnd,
    };
    const payload =
      to === 'approved'
        ? {
            ...base,
            regular_minutes: timesheet.split.regular,
            overtime_minutes: timesheet.split.overtime,
            double_time_minutes: timesheet.split.doubleTime,
            hours: hoursOf(timesheet.split.regular + timesheet.split.overtime + timesheet.split.doubleTime),
            pay_cents: timesheet.payCents,
            bill_cents: timesheet.billCents,
            currency: timesheet.currency,
            approved_at: at.toISOString(),
            note,
          }
        : { ...base, rejected_at: at.toISOString(), note };
    await this.events
      .publish(`timesheet.${to}`, timesheet.organizationId, payload, { dedupeKey: `timesheet.${to}:${timesheet.id}:${at.getTime()}` })
      .catch((error: Error) => this.logger.warn({ timesheetId: timesheet.id, err: error.message }, `publishing timesheet.${to} failed`));
    if (to === 'approved')
      for (const listener of this.approvalListeners.all())
        await listener
          .approved(timesheet.organizationId, timesheet.id)
          .catch((error: Error) => this.logger.warn({ timesheetId: timesheet.id, err: error.message }, 'a timesheet approval listener failed'));
    return { timesheet: decided, placement };
  }

  private compute(placement: Placement, periodStart: string, entries: readonly TimeEntry[]) {
    const split = splitHours(workedDays(entries, periodStart, placement.timezone), placement.overtimeRule);
    return { split, payCents: amountFor(split, placement.payRateCents), billCents: amountFor(split, placement.billRateCents) };
  }

  private reviewUrl(timesheet: Timesheet, submission: number): string {
    const expires = Math.floor((this.clock.now().getTime() + LINK_LIFETIME_MS) / 1000);
    const token = this.links.sign({ p: 'timesheet_review', o: timesheet.organizationId, r: `${timesheet.id}:${submission}`, x: expires });
    return `${this.options.baseUrl.replace(/\/$/, '')}/v1/timesheet_review?token=${token}`;
  }

  private async requireLicense(organizationId: string): Promise<void> {
    if (!(await this.gate.allows(organizationId, TIME_TRACKING_ACTION))) {
      throw forbidden(
        'license_required',
        `The ${TIME_TRACKING_ACTION} license is not active for this organization (POST /v1/integrations/licenses/${TIME_TRACKING_ACTION}/activate)`,
      );
    }
  }
}
