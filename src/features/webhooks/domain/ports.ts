/** Effects webhook delivery needs from outside the domain: HTTP, signatures, destination checks. */

export interface OutgoingWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** The receiver answered (any status). Network errors, timeouts and refused destinations throw WebhookSendError. */
export interface WebhookResponse {
  status: number;
  /** A 429/503's `Retry-After`, in seconds, when it named one (seconds or an HTTP date). */
  retryAfterSeconds?: number;
}

export class WebhookSendError extends Error {
  constructor(
    /** network and timeout are retried; a refused destination (private address) is not. */
    readonly kind: 'network' | 'timeout' | 'destination_refused',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookSendError';
  }
}

export interface WebhookSender {
  send(webhook: OutgoingWebhook): Promise<WebhookResponse>;
}

export interface WebhookSigner {
  /** A new `whsec_…` secret. */
  newSecret(): string;
  /** `v1,<base64 HMAC-SHA256 of id.timestamp.body>` per Standard Webhooks. */
  sign(secret: string, messageId: string, timestamp: Date, body: string): string;
}

/** Where webhooks may go: https (http outside production or for listed hosts), no internal addresses unless allowed. */
export interface DestinationPolicy {
  /** Throws an `invalid` DomainError (param `url`) naming the problem. */
  check(url: string): Promise<void>;
}

/**
 * The fetch for URLs the destination policy admitted (a time-stamp authority, an import
 * feed): the same rules, checked again at each connection inside its own DNS lookup (and for
 * every redirect), so a name that resolves inward later (DNS rebinding) is refused there.
 */
export interface DestinationFetch {
  fetch: typeof fetch;
}

export const WEBHOOK_SENDER = Symbol('WebhookSender');
export const WEBHOOK_SIGNER = Symbol('WebhookSigner');
export const DESTINATION_POLICY = Symbol('DestinationPolicy');
export const DESTINATION_FETCH = Symbol('DestinationFetch');
export const RETRY_SCHEDULE = Symbol('RetrySchedule');
/** Per-attempt deadline and rotation overlap, from configuration. */
export const WEBHOOK_SETTINGS = Symbol('WebhookSettings');

export interface WebhookSettings {
  timeoutMs: number;
  secretOverlapSeconds: number;
}
