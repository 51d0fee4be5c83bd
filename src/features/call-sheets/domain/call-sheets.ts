/**
 * Distributes a production day's call sheets and records confirmations. Each person's
 * email (PDF attached) and SMS (signed links) are action runs keyed by the day and the
 * person, so a repeated hook or a retry never sends twice. The reminder is one delayed job
 * per day at `confirm_by` (deterministic id): when it runs it reminds those still `sent`.
 */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { DomainError, isDomainError } from '../../../kernel/errors';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { randomToken } from '../../../kernel/ids';
import { JOB_QUEUE, type JobQueue } from '../../../kernel/job-queue';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { NOTIFICATION_CONNECTOR, SMS_CONNECTOR, type NotificationConnector, type SmsConnector } from '../../hooks/domain/connectors';
import type { HookHandlerReport } from '../../hooks/domain/hook-handler';
import { formatMoment, messageLanguage } from '../../messages/domain/message-language';
import { renderMessage, type RenderedMessage } from '../../messages/domain/render-message';
import { MESSAGE_LINK_KEY, SignedLinks } from '../../messages/domain/signed-links';
import {
  CALL_SHEET_ACTION,
  CALL_SHEET_DOCUMENTS,
  CALL_SHEET_OPTIONS,
  CALL_SHEET_REMINDERS_QUEUE,
  CALL_SHEET_REPOSITORY,
  SMS_AVAILABILITY,
  wallClockInstant,
  type CallSheet,
  type CallSheetDocuments,
  type CallSheetOptions,
  type CallSheetReminderJob,
  type CallSheetRepository,
  type ProductionDay,
  type SmsAvailability,
} from './call-sheet';

/** Links stay valid until a week after the day (a late confirmation still counts). */
const LINK_LIFETIME_MS = 7 * 24 * 3600_000;

@injectable()
export class CallSheets {
  private readonly links: SignedLinks;

  constructor(
    @inject(CALL_SHEET_REPOSITORY) private readonly sheets: CallSheetRepository,
    @inject(CALL_SHEET_DOCUMENTS) private readonly documents: CallSheetDocuments,
    @inject(NOTIFICATION_CONNECTOR) private readonly email: NotificationConnector,
    @inject(SMS_CONNECTOR) private readonly sms: SmsConnector,
    @inject(SMS_AVAILABILITY) private readonly smsAvailable: SmsAvailability,
    @inject(JOB_QUEUE) private readonly queue: JobQueue,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(CALL_SHEET_OPTIONS) private readonly options: CallSheetOptions,
    @inject(MESSAGE_LINK_KEY) linkKey: Buffer,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly logger: Logger,
  ) {
    this.links = new SignedLinks(linkKey);
  }

  async distribute(organizationId: string, day: ProductionDay): Promise<HookHandlerReport> {
    const now = this.clock.now();
    const smsAvailable = await this.smsAvailable(organizationId);
    const results: HookHandlerReport[] = [];
    for (const p of day.people) {
      const { sheet, created } = await this.sheets.claim({
        id: `cs_${randomToken(24)}`,
        organizationId,
        productionDayId: day.production_day_id,
        personId: p.person_id,
        name: p.name,
        email: p.email ?? null,
        phone: p.phone ?? null,
        language: messageLanguage(p.language).tag,
        role: p.role ?? null,
        production: day.production,
        date: day.date,
        timezone: day.timezone,
        location: day.location,
        callAt: wallClockInstant(day.date, p.call_time, day.timezone),
        confirmBy: day.confirm_by ? new Date(day.confirm_by) : null,
        status: 'sent',
        reason: null,
        emailRunId: null,
        smsRunId: null,
        confirmedAt: null,
        remindedAt: null,
        createdAt: now,
      });
      if (!created && sheet.status !== 'failed' && (sheet.emailRunId || sheet.smsRunId)) {
        results.push({ person_id: p.person_id, call_sheet_id: sheet.id, status: sheet.status, unchanged: true });
        continue;
      }
      results.push(await this.send(sheet, 'call_sheet', smsAvailable));
    }
    if (day.confirm_by) {
      const delayMs = Math.max(0, new Date(day.confirm_by).getTime() - now.getTime());
      const job: CallSheetReminderJob = { organization_id: organizationId, production_day_id: day.production_day_id };
      await this.queue.add(CALL_SHEET_REMINDERS_QUEUE, 'remind', job, { jobId: `call-sheet-reminder-${organizationId}-${day.production_day_id}`, delayMs });
    }
    return { production_day_id: day.production_day_id, call_sheets: results };
  }

  /** The reminder job: a second message to everyone who has not confirmed. */
  async remind(job: CallSheetReminderJob): Promise<number> {
    const smsAvailable = await this.smsAvailable(job.organization_id);
    let count = 0;
    for (const sheet of await this.sheets.unconfirmed(job.organization_id, job.production_day_id)) {
      if (sheet.remindedAt) continue;
      await this.send(sheet, 'call_sheet_reminder', smsAvailable);
      await this.sheets.update(sheet.id, { remindedAt: this.clock.now() });
      count += 1;
    }
    return count;
  }

  private async send(sheet: CallSheet, kind: 'call_sheet' | 'call_sheet_reminder', smsAvailable: boolean): Promise<HookHandlerReport> {
    const language = messageLanguage(sheet.language);
    const confirmUrl = this.link(sheet, 'call_sheet_confirm', '/v1/call_sheets/confirm');
    const params = {
      name: sheet.name,
      production: sheet.production,
      date: formatMoment(sheet.callAt, language, sheet.timezone, 'date'),
      call_time: formatMoment(sheet.callAt, language, sheet.timezone, 'time'),
      location: sheet.location,
    };
    const key = `${kind}-${sheet.organizationId}-${sheet.productionDayId}-${sheet.personId}`;
    const base = { organizationId: sheet.organizationId, actionKey: CALL_SHEET_ACTION };
    const report: HookHandlerReport = { person_id: sheet.personId, call_sheet_id: sheet.id, status: 'sent' };
    try {
      if (sheet.email) {
        const message: RenderedMessage = renderMessage(kind, language, params, { links: [{ kind: 'confirm', url: confirmUrl }] });
        const pdf = await this.documents.render(sheet);
        const delivery = await this.email.sendEmail({
          ...base,
          idempotencyKey: `${key}-email`,
          to: { name: sheet.name, email: sheet.email },
          ...message,
          attachments: [{ filename: `call-sheet-${sheet.date}.pdf`, contentType: 'application/pdf', content: pdf }],
        });
        report.email_run_id = delivery.deliveryId;
        if (kind === 'call_sheet') await this.sheets.update(sheet.id, { emailRunId: delivery.deliveryId });
      }
      if (sheet.phone && smsAvailable) {
        const sheetUrl = this.link(sheet, 'call_sheet_view', '/v1/call_sheets/sheet');
        const message = renderMessage(kind, language, params, {
          links: [
            { kind: 'call_sheet', url: sheetUrl },
            { kind: 'confirm', url: confirmUrl },
          ],
        });
        const text = message.text.replace(/\n+/g, ' ');
        const delivery = await this.sms.sendSms({ ...base, idempotencyKey: `${key}-sms`, to: sheet.phone, text });
        report.sms_run_id = delivery.deliveryId;
        if (kind === 'call_sheet') await this.sheets.update(sheet.id, { smsRunId: delivery.deliveryId });
      }
    } catch (error) {
      if (!isDomainError(error) || error.kind === 'upstream') throw error;
      if (kind === 'call_sheet') await this.sheets.update(sheet.id, { status: 'failed', reason: error.code });
      this.logger.warn({ organizationId: sheet.organizationId, callSheetId: sheet.id, reason: error.code }, 'a call sheet could not be sent');
      return { ...report, status: 'failed', reason: error.code };
    }
    return report;
  }

  private link(sheet: CallSheet, purpose: 'call_sheet_confirm' | 'call_sheet_view', path: string): string {
    const expires = Math.floor((sheet.callAt.getTime() + LINK_LIFETIME_MS) / 1000);
    const token = this.links.sign({ p: purpose, o: sheet.organizationId, r: sheet.id, x: expires });
    return `${this.options.baseUrl.replace(/\/$/, '')}${path}?token=${token}`;
  }

  /** The sheet behind a link (400 link_invalid, 410 link_expired, 404 once erased). */
  async open(token: string, purpose: 'call_sheet_confirm' | 'call_sheet_view'): Promise<CallSheet> {
    const claims = this.links.verify(token, purpose, this.clock.now());
    const sheet = await this.sheets.get(claims.o, claims.r);
    if (!sheet) throw new DomainError('not_found', 'link_not_found', 'Nothing is behind this link any more (the record was erased)');
    return sheet;
  }

  async pdf(token: string): Promise<{ sheet: CallSheet; pdf: Buffer }> {
    const sheet = await this.open(token, 'call_sheet_view');
    return { sheet, pdf: await this.documents.render(sheet) };
  }

  /** Confirms once; `call_sheet.confirmed` is published once per sheet. */
  async confirm(token: string): Promise<CallSheet> {
    const sheet = await this.open(token, 'call_sheet_confirm');
    const at = this.clock.now();
    if (await this.sheets.confirm(sheet.id, at)) {
      await this.events
        .publish(
          'call_sheet.confirmed',
          sheet.organizationId,
          { call_sheet_id: sheet.id, production_day_id: sheet.productionDayId, person_id: sheet.personId, confirmed_at: at.toISOString() },
          { dedupeKey: `call_sheet.confirmed:${sheet.id}` },
        )
        .catch((error: Error) => this.logger.warn({ callSheetId: sheet.id, err: error.message }, 'publishing call_sheet.confirmed failed'));
    }
    return { ...sheet, status: 'confirmed', confirmedAt: sheet.confirmedAt ?? at };
  }
}
