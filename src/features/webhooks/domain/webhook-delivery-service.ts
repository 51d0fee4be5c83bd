/**
 * One attempt of one webhook delivery: load the event and endpoint, sign the body per
 * Standard Webhooks (`webhook-id` is the event id, so it is the same on every retry), send
 * it with a deadline, and record the outcome. Network errors, timeouts, 408/409/425/429,
 * 3xx and 5xx are retried on the RetrySchedule; other 4xx and refused destinations end the
 * delivery at once. A delivery that failed for its whole window disables the endpoint if
 * nothing reached it in that time (with a `webhook_endpoint.disabled` event and a log line).
 *
 * Idempotent per job: the delivery row names its live job (`job_seq`), a stale job does
 * nothing, and the outcome is written only for the job that claimed it.
 */
import { inject, injectable } from 'tsyringe';
import { EVENT_LOG, type EventLog } from '../../events/domain/event';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { LOGGER, type Logger } from '../../../kernel/logger';
import {
  RETRY_SCHEDULE,
  WEBHOOK_SENDER,
  WEBHOOK_SETTINGS,
  WEBHOOK_SIGNER,
  WebhookSendError,
  type WebhookSender,
  type WebhookSettings,
  type WebhookSigner,
} from './ports';
import { isRetryableStatus, type RetrySchedule } from '../../../kernel/delivery/backoff';
import { settleAttempt } from '../../../kernel/delivery/settle-attempt';
import { WEBHOOK_DELIVERY_REPOSITORY, type AttemptOutcome, type WebhookDeliveryRepository } from './webhook-delivery';
import { WEBHOOK_ENDPOINT_REPOSITORY, type WebhookEndpointRepository } from './webhook-endpoint';
import { ENDPOINT_DISABLED_EVENT } from './webhook-endpoint-service';

/** The JSON body of every delivery. */
export function webhookBody(event: { id: string; type: string; sequence: number; createdAt: Date; data: object }): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), sequence: event.sequence, data: event.data });
}

@injectable()
export class WebhookDeliveryService {
  constructor(
    @inject(WEBHOOK_DELIVERY_REPOSITORY) private readonly deliveries: WebhookDeliveryRepository,
    @inject(WEBHOOK_ENDPOINT_REPOSITORY) private readonly endpoints: WebhookEndpointRepository,
    @inject(EVENT_LOG) private readonly events: EventLog,
    @inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    @inject(WEBHOOK_SIGNER) private readonly signer: WebhookSigner,
    @inject(RETRY_SCHEDULE) private readonly schedule: RetrySchedule,
    @inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Returns what happened, or undefined when the job was stale (nothing to do). */
  async attempt(deliveryId: string, jobSeq: number): Promise<AttemptOutcome | undefined> {
    const started = this.clock.now();
    // One statement (batched with concurrent deliveries): the job claims its delivery and reads the event and the endpoint.
    const claimed = await this.deliveries.claim(deliveryId, jobSeq, new Date(started.getTime() + this.settings.timeoutMs + 5_000), started);
    if (!claimed) return undefined;
    const { delivery, event, target } = claimed;
    const endpoint = target?.endpoint;
    let outcome: AttemptOutcome;
    if (!endpoint || !event) outcome = { kind: 'canceled', error: 'the endpoint or the event no longer exists' };
    else if (!endpoint.enabled) outcome = { kind: 'canceled', error: 'endpoint_disabled' };
    else {
      const secrets = target!.secrets;
      const body = webhookBody(event);
      const signatures = [secrets.current, ...(secrets.previous ? [secrets.previous] : [])].map((secret) => this.signer.sign(secret, event.id, started, body));
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'hiring-integrations-webhooks',
        'webhook-id': event.id,
        'webhook-timestamp': String(Math.floor(started.getTime() / 1000)),
        'webhook-signature': signatures.join(' '),
      };
      outcome = await this.send({ url: endpoint.url, headers, body, timeoutMs: this.settings.timeoutMs }, delivery.attempts + 1, delivery.windowStartedAt);
    }
    const now = this.clock.now();
    if (!(await this.deliveries.recordAttempt(deliveryId, jobSeq, outcome, now))) return undefined;
    if (outcome.kind === 'failed' && outcome.windowExhausted && endpoint)
      await this.disableIfDead(endpoint.id, delivery.organizationId, delivery.windowStartedAt, outcome.error);
    return outcome;
  }

  /** Sends, then settles the attempt on the delivery engine (platform/delivery): succeeded, retrying at the backoff's moment, failed or exhausted. */
  private async send(webhook: Parameters<WebhookSender['send']>[0], attempt: number, windowStartedAt: Date): Promise<AttemptOutcome> {
    let statusCode: number | null = null;
    let error: string;
    let transient: boolean;
    let retryAfterSeconds: number | undefined;
    try {
      const response = await this.sender.send(webhook);
      if (response.status >= 200 && response.status < 300) return { kind: 'succeeded', statusCode: response.status };
      statusCode = response.status;
      error = `HTTP ${response.status}`;
      transient = isRetryableStatus(response.status);
      retryAfterSeconds = response.retryAfterSeconds;
    } catch (caught) {
      const failure = caught instanceof WebhookSendError ? caught : new WebhookSendError('network', (caught as Error).message);
      error = `${failure.kind}: ${failure.message}`.slice(0, 500);
      transient = failure.kind !== 'destination_refused';
    }
    const settled = settleAttempt(
      { kind: 'failure', verdict: { transient, code: 'webhook_failed', message: error, ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}) } },
      { attempt, now: this.clock.now(), schedule: { retry: this.schedule, windowStartedAt } },
    );
    if (settled.status === 'retrying') return { kind: 'retry', statusCode, error, nextAttemptAt: settled.nextAttemptAt! };
    return { kind: 'failed', statusCode, error, windowExhausted: settled.status === 'exhausted' };
  }

  /** Failing for the whole window with no success since it began: the endpoint is disabled. */
  private async disableIfDead(endpointId: string, organizationId: string, windowStartedAt: Date, lastError: string): Promise<void> {
    const endpoint = await this.endpoints.findById(endpointId);
    if (!endpoint || !endpoint.enabled) return;
    if (endpoint.lastSuccessAt && endpoint.lastSuccessAt >= windowStartedAt) return;
    const now = this.clock.now();
    await this.endpoints.update(organizationId, endpointId, { enabled: false, disabledReason: 'failing' }, now);
    await this.deliveries.cancelPending(endpointId, 'endpoint_disabled', now);
    this.logger.warn({ organizationId, endpointId, lastError }, 'webhook endpoint disabled: every delivery failed for the whole retry window');
    await this.events.record({
      organizationId,
      type: ENDPOINT_DISABLED_EVENT,
      data: { webhook_endpoint_id: endpointId, url: endpoint.url, reason: 'failing', last_error: lastError, failing_since: windowStartedAt.toISOString() },
      dedupeKey: `${ENDPOINT_DISABLED_EVENT}:${endpointId}:${now.getTime()}`,
    });
  }
}
