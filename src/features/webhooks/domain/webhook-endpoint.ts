/** A URL of the organization that receives signed event deliveries (Standard Webhooks). */
export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  url: string;
  description: string | null;
  /** Event types wanted; `['*']` means all. */
  eventTypes: string[];
  enabled: boolean;
  disabledReason: string | null;
  /** The previous secret still signs until this moment (rotation overlap). */
  previousSecretExpiresAt: Date | null;
  lastSuccessAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Current secret, and the previous one while its overlap lasts: deliveries carry a signature per secret. */
export interface SigningSecrets {
  current: string;
  previous?: string;
}

export const ALL_EVENTS = '*';

export const wantsEvent = (endpoint: Pick<WebhookEndpoint, 'eventTypes'>, type: string): boolean =>
  endpoint.eventTypes.includes(ALL_EVENTS) || endpoint.eventTypes.includes(type);

export interface WebhookEndpointChange {
  url?: string;
  description?: string | null;
  eventTypes?: string[];
  enabled?: boolean;
}

export interface WebhookEndpointRepository {
  create(endpoint: WebhookEndpoint, secret: string): Promise<void>;
  find(organizationId: string, endpointId: string): Promise<WebhookEndpoint | undefined>;
  findById(endpointId: string): Promise<WebhookEndpoint | undefined>;
  list(organizationId: string, options: { limit: number; startingAfter?: string }): Promise<{ data: WebhookEndpoint[]; hasMore: boolean }>;
  update(
    organizationId: string,
    endpointId: string,
    change: WebhookEndpointChange & { disabledReason?: string | null },
    at: Date,
  ): Promise<WebhookEndpoint | undefined>;
  delete(organizationId: string, endpointId: string): Promise<boolean>;
  rotateSecret(organizationId: string, endpointId: string, secret: string, previousExpiresAt: Date, at: Date): Promise<WebhookEndpoint | undefined>;
  secrets(endpointId: string, now: Date): Promise<SigningSecrets | undefined>;
  markSucceeded(endpointId: string, at: Date): Promise<void>;
}

export const WEBHOOK_ENDPOINT_REPOSITORY = Symbol('WebhookEndpointRepository');
