import type { PluginEvent } from '../../events/domain/event';
import type { SigningSecrets, WebhookEndpoint } from './webhook-endpoint';

/** One event for one endpoint, with the history of its attempts. */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';

export interface WebhookDelivery {
  id: string;
  organizationId: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  jobSeq: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  windowStartedAt: Date;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';

export const deliveryJobId = (deliveryId: string, jobSeq: number) => `webhook-${deliveryId}-${jobSeq}`;

export interface DeliveryJobData {
  deliveryId: string;
  jobSeq: number;
}

/** What one attempt came to. */
export type AttemptOutcome =
  | { kind: 'succeeded'; statusCode: number }
  | { kind: 'retry'; statusCode: number | null; error: string; nextAttemptAt: Date }
  | { kind: 'failed'; statusCode: number | null; error: string; windowExhausted: boolean }
  | { kind: 'canceled'; error: string };

/** A delivery claimed by its job, with the event it carries and where it goes. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  event: PluginEvent | undefined;
  /** Its endpoint and signing secrets, read by the same statement; undefined once the endpoint is deleted. */
  target: { endpoint: WebhookEndpoint; secrets: SigningSecrets } | undefined;
}

export interface WebhookDeliveryRepository {
  find(organizationId: string, deliveryId: string): Promise<WebhookDelivery | undefined>;
  findById(deliveryId: string): Promise<WebhookDelivery | undefined>;
  listForEndpoint(
    organizationId: string,
    endpointId: string,
    options: { limit: number; startingAfter?: string; status?: DeliveryStatus },
  ): Promise<{ data: WebhookDelivery[]; hasMore: boolean }>;
  /**
   * Marks the delivery as being sent by the job `jobSeq` until `until`, and answers it with
   * its event (undefined when the event is gone); undefined when that job is stale or the
   * delivery is no longer pending.
   */
  claim(deliveryId: string, jobSeq: number, until: Date, now: Date): Promise<ClaimedDelivery | undefined>;
  /** Records an attempt's outcome (a success also stamps the endpoint's last_success_at); a retry also bumps the job number and writes the next job's outbox message. Ignored for a stale job. */
  recordAttempt(deliveryId: string, jobSeq: number, outcome: AttemptOutcome, at: Date): Promise<boolean>;
  /** Sends again (replay): pending now, a new job, a new retry window. */
  requeue(deliveryId: string, at: Date): Promise<WebhookDelivery | undefined>;
  /**
   * Deliveries that are due (pending, next attempt more than `graceMs` ago) but have no job
   * in flight: not claimed, and no undispatched outbox message. A Redis restart loses
   * queued jobs; the sweep re-enqueues these.
   */
  dueButNotQueued(now: Date, graceMs: number, limit: number): Promise<WebhookDelivery[]>;
  /** Moves a due delivery to a new job, due at `at` (the sweep); false when it changed or was claimed meanwhile. */
  reenqueue(deliveryId: string, jobSeq: number, at: Date): Promise<boolean>;
  /** Pending deliveries of an endpoint are canceled (it was disabled). */
  cancelPending(endpointId: string, reason: string, at: Date): Promise<number>;
}

export const WEBHOOK_DELIVERY_REPOSITORY = Symbol('WebhookDeliveryRepository');
