/**
 * Sends status updates and honours unsubscribes. The message goes through the email port
 * as an action run keyed by the host's change id, so a repeated hook (or a retry after a
 * transient failure) never sends twice; it carries RFC 8058 one-click unsubscribe headers
 * and a visible link, both signed.
 */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { DomainError, isDomainError } from '../../../kernel/errors';
import { randomToken } from '../../../kernel/ids';
import { NOTIFICATION_CONNECTOR, type NotificationConnector } from '../../hooks/domain/connectors';
import type { HookHandlerReport } from '../../hooks/domain/hook-handler';
import { messageLanguage } from '../../messages/domain/message-language';
import { renderMessage } from '../../messages/domain/render-message';
import { MESSAGE_LINK_KEY, SignedLinks } from '../../messages/domain/signed-links';
import {
  STATUS_UPDATE_ACTION,
  STATUS_UPDATE_OPTIONS,
  STATUS_UPDATE_REPOSITORY,
  STATUS_UPDATES_TOPIC,
  type StageChanged,
  type StatusUpdate,
  type StatusUpdateOptions,
  type StatusUpdateRepository,
} from './status-update';

export interface UnsubscribeTarget {
  update: StatusUpdate;
  unsubscribed: boolean;
}

@injectable()
export class StatusUpdates {
  private readonly links: SignedLinks;

  constructor(
    @inject(STATUS_UPDATE_REPOSITORY) private readonly updates: StatusUpdateRepository,
    @inject(NOTIFICATION_CONNECTOR) private readonly email: NotificationConnector,
    @inject(STATUS_UPDATE_OPTIONS) private readonly options: StatusUpdateOptions,
    @inject(MESSAGE_LINK_KEY) linkKey: Buffer,
    @inject(CLOCK) private readonly clock: Clock,
  ) {
    this.links = new SignedLinks(linkKey);
  }

  async send(organizationId: string, change: StageChanged, organizationName: string): Promise<HookHandlerReport> {
    const now = this.clock.now();
    const language = messageLanguage(change.candidate.language);
    const email = change.candidate.email.toLowerCase();
    const update = await this.updates.claim({
      id: `su_${randomToken(24)}`,
      organizationId,
      changeId: change.change_id,
      applicationId: change.application_id,
      recipientName: change.candidate.name,
      recipientEmail: email,
      language: language.tag,
      stage: change.stage,
      status: 'pending',
      reason: null,
      runId: null,
      createdAt: now,
      updatedAt: now,
    });
    const report = (extra: HookHandlerReport = {}) => ({ status_update_id: update.id, change_id: update.changeId, ...extra });
    if (update.status === 'sent' || update.status === 'suppressed') return report({ status: update.status, unchanged: true });
    if (await this.updates.isUnsubscribed(organizationId, email, STATUS_UPDATES_TOPIC)) {
      await this.updates.settle(update.id, { status: 'suppressed', reason: 'unsubscribed', at: now });
      return report({ status: 'suppressed' });
    }
    const unsubscribeUrl = this.unsubscribeUrl(update);
    const message = renderMessage(
      'status_update',
      language,
      {
        name: change.candidate.name,
        stage: change.stage,
        job: change.job_title,
        note: change.note,
        organization: change.organization_name ?? organizationName,
      },
      { links: [{ kind: 'unsubscribe', url: unsubscribeUrl }], footer: 'unsubscribe' },
    );
    let runId: string;
    try {
      const delivery = await this.email.sendEmail({
        organizationId,
        actionKey: STATUS_UPDATE_ACTION,
        idempotencyKey: `status-update-${organizationId}-${change.change_id}`,
        to: { name: change.candidate.name, email: change.candidate.email },
        ...message,
        headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
      runId = delivery.deliveryId;
    } catch (error) {
      // A refusal (no connection, a rejected recipient) is final for this change; trouble upstream stays pending for the host's retry.
      if (isDomainError(error) && error.kind !== 'upstream')
        await this.updates.settle(update.id, { status: 'failed', reason: error.code, at: this.clock.now() });
      throw error;
    }
    await this.updates.settle(update.id, { status: 'sent', reason: null, runId, at: this.clock.now() });
    return report({ status: 'sent', run_id: runId, language: language.tag });
  }

  unsubscribeUrl(update: StatusUpdate): string {
    const token = this.links.sign({ p: 'unsubscribe', o: update.organizationId, r: update.id });
    return `${this.options.baseUrl.replace(/\/$/, '')}/v1/messages/unsubscribe?token=${token}`;
  }

  /** What an unsubscribe link points at; 400 link_invalid for a changed token, 404 once the record was erased. */
  async target(token: string): Promise<UnsubscribeTarget> {
    const claims = this.links.verify(token, 'unsubscribe', this.clock.now());
    const update = await this.updates.get(claims.o, claims.r);
    if (!update) throw linkGone();
    return { update, unsubscribed: await this.updates.isUnsubscribed(update.organizationId, update.recipientEmail, STATUS_UPDATES_TOPIC) };
  }

  async unsubscribe(token: string): Promise<UnsubscribeTarget> {
    const { update } = await this.target(token);
    await this.updates.unsubscribe(update.organizationId, update.recipientEmail, STATUS_UPDATES_TOPIC, update.id, this.clock.now());
    return { update, unsubscribed: true };
  }
}

const linkGone = () => new DomainError('not_found', 'link_not_found', 'Nothing is behind this link any more (the record was erased)');
