/**
 * scheduling.shift_scheduling: the host publishes, changes and cancels shifts through the
 * API; the plugin tells the person. Every change is stored first and carried by a job of the
 * `shift-notifications` queue (deterministic id per shift and SEQUENCE): the iTIP invitation
 * by email (REQUEST, or CANCEL with the same UID) and an SMS with the signed confirmation
 * link, each an action run whose idempotency key names the shift, the SEQUENCE and the
 * channel, so a retried job never sends a version twice while a change always goes out.
 * The reminder is a delayed job at `remind_at` and a sweep over due reminders (nothing is
 * lost when Redis forgot the delayed job); both send under one key, so it goes out once.
 */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { conflict, DomainError, forbidden, invalid, isDomainError, notFound } from '../../../kernel/errors';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { newId } from '../../../kernel/ids';
import { JOB_QUEUE, type JobQueue } from '../../../kernel/job-queue';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { NOTIFICATION_CONNECTOR, SMS_CONNECTOR, type NotificationConnector, type SmsConnector } from '../../hooks/domain/connectors';
import { HookGate } from '../../hooks/domain/hook-gate';
import { formatMoment, messageLanguage } from '../../messages/domain/message-language';
import { SignedLinks } from '../../messages/domain/signed-links';
import { sendInvitation } from '../../scheduling/domain/invitations';
import { shiftEvent, shiftFeed } from './shift-calendar';
import { fill, SHIFT_STRINGS } from './shift-strings';
import {
  DEFAULT_REMIND_MINUTES_BEFORE,
  reminderInstant,
  SHIFT_LINK_KEY,
  SHIFT_NOTIFICATIONS_QUEUE,
  SHIFT_OPTIONS,
  SHIFT_REPOSITORY,
  SHIFT_SCHEDULING_ACTION,
  SHIFT_SMS_AVAILABILITY,
  type Employee,
  type Shift,
  type ShiftListFilter,
  type ShiftNotificationJob,
  type ShiftOptions,
  type ShiftRepository,
  type ShiftResponse,
  type SmsAvailability,
} from './shift';

/** A confirmation link stays valid a week after the shift ends. */
const LINK_LIFETIME_MS = 7 * 24 * 3600_000;
const FEED_LIMIT = 500;
const SWEEP_BATCH = 200;

export interface ShiftInput {
  employee: Employee;
  location: string;
  role?: string | null;
  notes?: string | null;
  startsAt: Date;
  endsAt: Date;
  organizer?: { name: string; email: string };
  remindMinutesBefore?: number | null;
  /** The host's id (a shift published through the hook bus): one shift per host id. */
  hostShiftId?: string;
}

export type ShiftChange = Partial<Omit<ShiftInput, 'employee'>> & { employee?: Partial<Omit<Employee, 'id'>> };

export interface FeedLink {
  employeeId: string;
  version: number;
  url: string;
  webcalUrl: string;
}

/** What the person's answer did: recorded, or the shift is no longer what they saw. */
export type RespondOutcome = 'recorded' | 'cancelled' | 'changed';

@injectable()
export class Shifts {
  private readonly links: SignedLinks;

  constructor(
    @inject(SHIFT_REPOSITORY) private readonly shifts: ShiftRepository,
    @inject(NOTIFICATION_CONNECTOR) private readonly email: NotificationConnector,
    @inject(SMS_CONNECTOR) private readonly sms: SmsConnector,
    @inject(SHIFT_SMS_AVAILABILITY) private readonly smsAvailable: SmsAvailability,
    @inject(HookGate) private readonly gate: HookGate,
    @inject(JOB_QUEUE) private readonly queue: JobQueue,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(SHIFT_OPTIONS) private readonly options: ShiftOptions,
    @inject(SHIFT_LINK_KEY) linkKey: Buffer,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly logger: Logger,
  ) {
    this.links = new SignedLinks(linkKey);
  }

  async create(organizationId: string, input: ShiftInput): Promise<Shift> {
    return (await this.make(organizationId, input)).shift;
  }

  private async make(organizationId: string, input: ShiftInput): Promise<{ shift: Shift; created: boolean }> {
    await this.requireLicense(organizationId);
    checkTimes(input.startsAt, input.endsAt);
    const now = this.clock.now();
    const remindMinutesBefore = input.remindMinutesBefore === undefined ? DEFAULT_REMIND_MINUTES_BEFORE : input.remindMinutesBefore;
    const shift: Shift = {
      id: newId('shf'),
      organizationId,
      hostShiftId: input.hostShiftId ?? null,
      employee: input.employee,
      location: input.location,
      role: input.role ?? null,
      notes: input.notes ?? null,
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      organizer: input.organizer ?? this.defaultOrganizer(),
      status: 'scheduled',
      sequence: 0,
      response: 'pending',
      respondedAt: null,
      remindMinutesBefore,
      remindAt: reminderInstant(input.startsAt, remindMinutesBefore),
      remindedAt: null,
      deliveryStatus: 'pending',
      deliveryReason: null,
      emailRunId: null,
      smsRunId: null,
      retractTo: null,
      createdAt: now,
      updatedAt: now,
    };
    // The same host shift published twice at once: the first insert stands, the other answers it.
    if (!(await this.shifts.insert(shift))) return { shift: (await this.shifts.byHostId(organizationId, input.hostShiftId!))!, created: false };
    await this.schedule(shift);
    return { shift, created: true };
  }

  /**
   * `shift.published` from the host's hook bus: the same as POST /v1/shifts, once per host
   * shift id (a hook delivered again answers the shift it made and sends nothing).
   */
  async publishFromHost(organizationId: string, hostShiftId: string, input: ShiftInput): Promise<{ shift: Shift; created: boolean }> {
    const existing = await this.shifts.byHostId(organizationId, hostShiftId);
    if (existing) return { shift: existing, created: false };
    return this.make(organizationId, { ...input, hostShiftId });
  }

  /** `shift.updated`: as PATCH /v1/shifts/{id}; a report that changes nothing (a hook delivered again) sends nothing. */
  async updateFromHost(organizationId: string, hostShiftId: string, change: ShiftChange): Promise<{ shift: Shift; changed: boolean }> {
    const current = await this.byHost(organizationId, hostShiftId);
    if (current.status !== 'cancelled' && !changes(current, change)) return { shift: current, changed: false };
    return { shift: await this.update(organizationId, current.id, change), changed: true };
  }

  /** `shift.cancelled`: as DELETE /v1/shifts/{id} (again: the cancelled shift, nothing sent). */
  async cancelFromHost(organizationId: string, hostShiftId: string): Promise<Shift> {
    return this.cancel(organizationId, (await this.byHost(organizationId, hostShiftId)).id);
  }

  private async byHost(organizationId: string, hostShiftId: string): Promise<Shift> {
    const shift = await this.shifts.byHostId(organizationId, hostShiftId);
    if (!shift) throw new DomainError('not_found', 'shift_not_found', `No shift was published with shift_id '${hostShiftId}'`, { param: 'shift_id' });
    return shift;
  }

  async get(organizationId: string, id: string): Promise<Shift> {
    const shift = await this.shifts.get(organizationId, id);
    if (!shift) throw notFound('shift', id);
    return shift;
  }

  async list(organizationId: string, filter: ShiftListFilter): Promise<Shift[]> {
    if (filter.startingAfter && !(await this.shifts.get(organizationId, filter.startingAfter))) throw notFound('shift', filter.startingAfter);
    return this.shifts.list(organizationId, filter);
  }

  /** A new SEQUENCE and a REQUEST; a change of time or place asks the person again. */
  async update(organizationId: string, id: string, change: ShiftChange): Promise<Shift> {
    const current = await this.get(organizationId, id);
    await this.requireLicense(organizationId);
    if (current.status === 'cancelled') throw conflict('shift_cancelled', 'This shift was cancelled; publish a new one');
    const startsAt = change.startsAt ?? current.startsAt;
    const endsAt = change.endsAt ?? current.endsAt;
    checkTimes(startsAt, endsAt);
    const location = change.location ?? current.location;
    const remindMinutesBefore = change.remindMinutesBefore === undefined ? current.remindMinutesBefore : change.remindMinutesBefore;
    const remindAt = reminderInstant(startsAt, remindMinutesBefore);
    const employee = { ...current.employee, ...definedOf(change.employee ?? {}) };
    // The old address holds the event: it gets a CANCEL (an earlier one still owed is kept).
    const retractTo =
      current.employee.email && employee.email !== current.employee.email ? { name: current.employee.name, email: current.employee.email } : current.retractTo;
    const moved = startsAt.getTime() !== current.startsAt.getTime() || endsAt.getTime() !== current.endsAt.getTime() || location !== current.location;
    const next: Shift = {
      ...current,
      employee,
      retractTo: retractTo?.email === employee.email ? null : retractTo,
      location,
      role: change.role === undefined ? current.role : change.role,
      notes: change.notes === undefined ? current.notes : change.notes,
      startsAt,
      endsAt,
      organizer: change.organizer ?? current.organizer,
      sequence: current.sequence + 1,
      response: moved ? 'pending' : current.response,
      respondedAt: moved ? null : current.respondedAt,
      remindMinutesBefore,
      remindAt,
      remindedAt: remindAt?.getTime() === current.remindAt?.getTime() ? current.remindedAt : null,
      deliveryStatus: 'pending',
      deliveryReason: null,
      updatedAt: this.clock.now(),
    };
    if (!(await this.shifts.replace(next, current.sequence)))
      throw conflict('shift_changed', 'The shift changed while this request ran; read it and try again');
    await this.schedule(next);
    return next;
  }

  /** Cancelled once: a CANCEL with the same UID and a higher SEQUENCE, and an SMS; again answers the cancelled shift. */
  async cancel(organizationId: string, id: string): Promise<Shift> {
    const current = await this.get(organizationId, id);
    await this.requireLicense(organizationId);
    if (current.status === 'cancelled') return current;
    const next: Shift = {
      ...current,
      status: 'cancelled',
      sequence: current.sequence + 1,
      deliveryStatus: 'pending',
      deliveryReason: null,
      updatedAt: this.clock.now(),
    };
    if (!(await this.shifts.replace(next, current.sequence)))
      throw conflict('shift_changed', 'The shift changed while this request ran; read it and try again');
    await this.schedule(next);
    return next;
  }

  /** The delivery job: the version `sequence` of the shift, by email (iTIP) and SMS. A later version supersedes it. */
  async deliver(job: ShiftNotificationJob): Promise<'sent' | 'failed' | 'superseded'> {
    const shift = await this.shifts.get(job.organization_id, job.shift_id);
    if (!shift || shift.sequence !== job.sequence) return 'superseded';
    const base = { organizationId: shift.organizationId, actionKey: SHIFT_SCHEDULING_ACTION };
    const cancelled = shift.status === 'cancelled';
    const confirmUrl = cancelled ? undefined : this.confirmUrl(shift);
    let emailRunId: string | null = null;
    let smsRunId: string | null = null;
    try {
      if (shift.retractTo) {
        // A refusal of the old address (its failed run says why) does not hold the new version back.
        const cancel = { method: 'CANCEL' as const, event: shiftEvent({ ...shift, status: 'cancelled' }), to: shift.retractTo };
        await sendInvitation(this.email, { ...base, ...cancel, language: messageLanguage(shift.employee.language).tag }).catch((error: unknown) => {
          if (!isDomainError(error) || error.kind === 'upstream') throw error;
          this.logger.warn({ organizationId: shift.organizationId, shiftId: shift.id, reason: error.code }, 'the old address could not be sent a CANCEL');
        });
        await this.shifts.clearRetraction(shift.id, shift.sequence);
      }
      if (shift.employee.email) {
        const delivery = await sendInvitation(this.email, {
          ...base,
          method: cancelled ? 'CANCEL' : 'REQUEST',
          event: shiftEvent(shift, confirmUrl),
          to: { name: shift.employee.name, email: shift.employee.email },
          language: messageLanguage(shift.employee.language).tag,
        });
        emailRunId = delivery.deliveryId;
      }
      if (shift.employee.phone && (await this.smsAvailable(shift.organizationId))) {
        const template = cancelled ? 'sms_cancelled' : shift.sequence === 0 ? 'sms_new' : 'sms_changed';
        const delivery = await this.sms.sendSms({
          ...base,
          idempotencyKey: `shift-${shift.organizationId}-${shift.id}-${shift.sequence}-sms`,
          to: shift.employee.phone,
          text: this.text(shift, template, confirmUrl ?? ''),
        });
        smsRunId = delivery.deliveryId;
      }
    } catch (error) {
      // An outage is retried by the queue (the runs already made answer again, unsent twice); a refusal is final.
      if (!isDomainError(error) || error.kind === 'upstream') throw error;
      await this.shifts.recordDelivery(shift.id, shift.sequence, { deliveryStatus: 'failed', deliveryReason: error.code, emailRunId, smsRunId });
      this.logger.warn({ organizationId: shift.organizationId, shiftId: shift.id, reason: error.code }, 'a shift could not be sent');
      return 'failed';
    }
    const nothing = !emailRunId && !smsRunId;
    await this.shifts.recordDelivery(shift.id, shift.sequence, {
      deliveryStatus: nothing ? 'failed' : 'sent',
      deliveryReason: nothing ? 'no_channel' : null,
      emailRunId,
      smsRunId,
    });
    return nothing ? 'failed' : 'sent';
  }

  /** The reminder, if due at `at` and not sent for this version: by SMS, else by email. */
  async remind(organizationId: string, id: string, at: Date = this.clock.now()): Promise<boolean> {
    const shift = await this.shifts.get(organizationId, id);
    if (!shift || shift.status !== 'scheduled' || !shift.remindAt || shift.remindedAt) return false;
    if (shift.remindAt > at || shift.startsAt <= at) return false;
    const base = {
      organizationId,
      actionKey: SHIFT_SCHEDULING_ACTION,
      idempotencyKey: `shift-${organizationId}-${shift.id}-${shift.sequence}-reminder`,
    };
    const url = this.confirmUrl(shift);
    try {
      if (shift.employee.phone && (await this.smsAvailable(organizationId))) {
        await this.sms.sendSms({ ...base, to: shift.employee.phone, text: this.text(shift, 'sms_reminder', url) });
      } else if (shift.employee.email) {
        const language = messageLanguage(shift.employee.language);
        const s = SHIFT_STRINGS[language.locale];
        const params = this.params(shift, url);
        await this.email.sendEmail({
          ...base,
          to: { name: shift.employee.name, email: shift.employee.email },
          subject: fill(s.reminder_subject, params),
          text: fill(s.reminder_body, params),
          language: language.tag,
        });
      }
    } catch (error) {
      if (!isDomainError(error) || error.kind === 'upstream') throw error;
      // A refusal is final (the failed run says why); marked so the sweep does not try again.
      this.logger.warn({ organizationId, shiftId: shift.id, reason: error.code }, 'a shift reminder could not be sent');
    }
    return this.shifts.claimReminder(shift.id, at);
  }

  /** The sweep: every reminder due by `at` (the job's clock, or a test clock's time) goes out once. */
  async sweep(at: Date = this.clock.now()): Promise<{ reminded: number }> {
    let reminded = 0;
    for (const shift of await this.shifts.dueReminders(at, SWEEP_BATCH)) {
      if (await this.remind(shift.organizationId, shift.id, at)) reminded += 1;
    }
    return { reminded };
  }

  get testClocks(): boolean {
    return this.options.testClocks;
  }

  /** The shift behind a confirmation link (400 link_invalid, 410 link_expired, 404 once erased). */
  async open(token: string): Promise<Shift> {
    const claims = this.links.verify(token, 'shift_confirm', this.clock.now());
    const shift = await this.shifts.get(claims.o, claims.r);
    if (!shift) throw new DomainError('not_found', 'link_not_found', 'Nothing is behind this link any more (the record was erased)');
    return shift;
  }

  /**
   * The person's answer to the version they saw (`sequence`): shift.confirmed or
   * shift.declined once per version and answer; a changed or cancelled shift records nothing.
   */
  async respond(token: string, response: Exclude<ShiftResponse, 'pending'>, sequence: number): Promise<{ shift: Shift; outcome: RespondOutcome }> {
    const shift = await this.open(token);
    if (shift.status === 'cancelled') return { shift, outcome: 'cancelled' };
    if (shift.sequence !== sequence) return { shift, outcome: 'changed' };
    const at = this.clock.now();
    if (await this.shifts.respond(shift.id, sequence, response, at)) {
      const type = response === 'confirmed' ? 'shift.confirmed' : 'shift.declined';
      await this.events
        .publish(
          type,
          shift.organizationId,
          { shift_id: shift.id, employee_id: shift.employee.id, starts_at: shift.startsAt.toISOString(), sequence, responded_at: at.toISOString() },
          { dedupeKey: `${type}:${shift.id}:${sequence}` },
        )
        .catch((error: Error) => this.logger.warn({ shiftId: shift.id, err: error.message }, `publishing ${type} failed`));
      return { shift: { ...shift, response, respondedAt: at }, outcome: 'recorded' };
    }
    return { shift: (await this.shifts.get(shift.organizationId, shift.id)) ?? shift, outcome: 'recorded' };
  }

  /** The person's feed link (the current version), or a new one that revokes the old (`rotate`). */
  async feedLink(organizationId: string, employeeId: string, rotate: boolean): Promise<FeedLink> {
    await this.requireLicense(organizationId);
    if (!(await this.shifts.hasEmployee(organizationId, employeeId))) throw notFound('employee', employeeId);
    const version = rotate
      ? await this.shifts.rotateFeed(organizationId, employeeId, this.clock.now())
      : await this.shifts.feedVersion(organizationId, employeeId);
    const token = this.links.sign({ p: 'shift_feed', o: organizationId, r: `${version}.${employeeId}` });
    const url = `${this.base()}/v1/shifts/feed/${token}.ics`;
    return { employeeId, version, url, webcalUrl: url.replace(/^https?:/, 'webcal:') };
  }

  /** The feed behind a link: 400 link_invalid when tampered with, 410 link_revoked once rotated, 404 without the license. */
  async feed(token: string): Promise<string> {
    const claims = this.links.verify(token, 'shift_feed', this.clock.now());
    // Served while the organization holds the license (an unknown organization holds none).
    if (!(await this.gate.allows(claims.o, SHIFT_SCHEDULING_ACTION))) throw new DomainError('not_found', 'feed_not_found', 'No calendar is behind this link');
    const dot = claims.r.indexOf('.');
    const version = Number(claims.r.slice(0, dot));
    const employeeId = claims.r.slice(dot + 1);
    if (dot < 1 || !Number.isSafeInteger(version)) throw invalid('link_invalid', 'This link is not valid: it may have been changed or cut short', 'token');
    if (version !== (await this.shifts.feedVersion(claims.o, employeeId))) {
      throw new DomainError('gone', 'link_revoked', 'This calendar link was replaced by a new one; ask for the new link');
    }
    const now = this.clock.now();
    return shiftFeed('Shifts', await this.shifts.upcoming(claims.o, employeeId, now, FEED_LIMIT), now);
  }

  private async schedule(shift: Shift): Promise<void> {
    const job: ShiftNotificationJob = { organization_id: shift.organizationId, shift_id: shift.id, sequence: shift.sequence };
    await this.queue.add(SHIFT_NOTIFICATIONS_QUEUE, 'deliver', job, { jobId: `shift-deliver-${shift.id}-${shift.sequence}` });
    if (shift.status === 'scheduled' && shift.remindAt && !shift.remindedAt) {
      const delayMs = Math.max(0, shift.remindAt.getTime() - this.clock.now().getTime());
      await this.queue.add(SHIFT_NOTIFICATIONS_QUEUE, 'remind', job, { jobId: `shift-remind-${shift.id}-${shift.sequence}`, delayMs });
    }
  }

  private params(shift: Shift, url: string): Record<string, string> {
    const language = messageLanguage(shift.employee.language);
    return { name: shift.employee.name, when: formatMoment(shift.startsAt, language, shift.employee.timezone), location: shift.location, url };
  }

  private text(shift: Shift, key: 'sms_new' | 'sms_changed' | 'sms_cancelled' | 'sms_reminder', url: string): string {
    return fill(SHIFT_STRINGS[messageLanguage(shift.employee.language).locale][key], this.params(shift, url));
  }

  private confirmUrl(shift: Shift): string {
    const expires = Math.floor((shift.endsAt.getTime() + LINK_LIFETIME_MS) / 1000);
    return `${this.base()}/v1/shifts/confirm?token=${this.links.sign({ p: 'shift_confirm', o: shift.organizationId, r: shift.id, x: expires })}`;
  }

  private base(): string {
    return this.options.baseUrl.replace(/\/$/, '');
  }

  private defaultOrganizer(): { name: string; email: string } {
    return { name: 'Shift scheduling', email: `shifts@${new URL(this.options.baseUrl).hostname}` };
  }

  private async requireLicense(organizationId: string): Promise<void> {
    if (!(await this.gate.allows(organizationId, SHIFT_SCHEDULING_ACTION))) {
      throw forbidden(
        'license_required',
        `The ${SHIFT_SCHEDULING_ACTION} license is not active for this organization (POST /v1/integrations/licenses/${SHIFT_SCHEDULING_ACTION}/activate)`,
      );
    }
  }
}

function checkTimes(startsAt: Date, endsAt: Date): void {
  if (endsAt <= startsAt) throw invalid('shift_times_invalid', 'ends_at must be after starts_at', 'ends_at');
  if (endsAt.getTime() - startsAt.getTime() > 24 * 3600_000) throw invalid('shift_too_long', 'A shift lasts at most 24 hours', 'ends_at');
}

function definedOf<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Whether applying `change` to `shift` would change anything the person is sent or the shift keeps. */
function changes(shift: Shift, change: ShiftChange): boolean {
  const same = (a: unknown, b: unknown) => (a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : JSON.stringify(a) === JSON.stringify(b));
  const fields: [unknown, unknown][] = [
    [change.location, shift.location],
    [change.role, shift.role],
    [change.notes, shift.notes],
    [change.startsAt, shift.startsAt],
    [change.endsAt, shift.endsAt],
    [change.remindMinutesBefore, shift.remindMinutesBefore],
    [change.organizer, shift.organizer],
  ];
  const employee = Object.entries(change.employee ?? {}).map(([key, value]): [unknown, unknown] => [value, shift.employee[key as keyof typeof shift.employee]]);
  return [...fields, ...employee].some(([next, current]) => next !== undefined && !same(next, current));
}
