/**
 * Webhook endpoints of an organization: create (the secret is shown once), read, change,
 * delete, rotate the secret with an overlap, and send a test event to one endpoint.
 * Every destination passes the DestinationPolicy here, and again at each delivery.
 */
import { inject, injectable } from 'tsyringe';
import { EVENT_LOG, type EventLog, type PluginEvent } from '../../events/domain/event';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { invalid, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import { DESTINATION_POLICY, WEBHOOK_SETTINGS, WEBHOOK_SIGNER, type DestinationPolicy, type WebhookSettings, type WebhookSigner } from './ports';
import { WEBHOOK_ENDPOINT_REPOSITORY, type WebhookEndpoint, type WebhookEndpointChange, type WebhookEndpointRepository } from './webhook-endpoint';

export const TEST_EVENT = 'webhook_endpoint.test';
export const ENDPOINT_DISABLED_EVENT = 'webhook_endpoint.disabled';

export interface NewEndpoint {
  url: string;
  description?: string | null;
  eventTypes?: string[];
  enabled?: boolean;
}

@injectable()
export class WebhookEndpointService {
  constructor(
    @inject(WEBHOOK_ENDPOINT_REPOSITORY) private readonly endpoints: WebhookEndpointRepository,
    @inject(DESTINATION_POLICY) private readonly destinations: DestinationPolicy,
    @inject(WEBHOOK_SIGNER) private readonly signer: WebhookSigner,
    @inject(EVENT_LOG) private readonly events: EventLog,
    @inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(organizationId: string, input: NewEndpoint): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    await this.destinations.check(input.url);
    const now = this.clock.now();
    const endpoint: WebhookEndpoint = {
      id: newId('we'),
      organizationId,
      url: input.url,
      description: input.description ?? null,
      eventTypes: normalizeTypes(input.eventTypes),
      enabled: input.enabled ?? true,
      disabledReason: null,
      previousSecretExpiresAt: null,
      lastSuccessAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const secret = this.signer.newSecret();
    await this.endpoints.create(endpoint, secret);
    return { endpoint, secret };
  }

  async get(organizationId: string, endpointId: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.find(organizationId, endpointId);
    if (!endpoint) throw notFound('webhook endpoint', endpointId);
    return endpoint;
  }

  list(organizationId: string, options: { limit: number; startingAfter?: string }) {
    return this.endpoints.list(organizationId, options);
  }

  async update(organizationId: string, endpointId: string, change: WebhookEndpointChange): Promise<WebhookEndpoint> {
    await this.get(organizationId, endpointId);
    if (change.url !== undefined) await this.destinations.check(change.url);
    const updated = await this.endpoints.update(
      organizationId,
      endpointId,
      {
        ...change,
        ...(change.eventTypes !== undefined ? { eventTypes: normalizeTypes(change.eventTypes) } : {}),
        // Enabling again clears why it was disabled.
        ...(change.enabled === true ? { disabledReason: null } : {}),
      },
      this.clock.now(),
    );
    if (!updated) throw notFound('webhook endpoint', endpointId);
    return updated;
  }

  async delete(organizationId: string, endpointId: string): Promise<void> {
    if (!(await this.endpoints.delete(organizationId, endpointId))) throw notFound('webhook endpoint', endpointId);
  }

  /** A new secret; the old one keeps signing (a second signature) for `overlapSeconds`. */
  async rotateSecret(organizationId: string, endpointId: string, overlapSeconds?: number): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
    await this.get(organizationId, endpointId);
    const now = this.clock.now();
    const overlap = overlapSeconds ?? this.settings.secretOverlapSeconds;
    const secret = this.signer.newSecret();
    const endpoint = await this.endpoints.rotateSecret(organizationId, endpointId, secret, new Date(now.getTime() + overlap * 1000), now);
    if (!endpoint) throw notFound('webhook endpoint', endpointId);
    return { endpoint, secret };
  }

  /** Records a `webhook_endpoint.test` event delivered to this endpoint only. */
  async sendTest(organizationId: string, endpointId: string): Promise<PluginEvent> {
    const endpoint = await this.get(organizationId, endpointId);
    if (!endpoint.enabled) throw invalid('endpoint_disabled', 'The endpoint is disabled; enable it first (PATCH enabled: true)');
    const { event } = await this.events.record({
      organizationId,
      type: TEST_EVENT,
      data: { webhook_endpoint_id: endpoint.id, message: 'A test event from hiring-integrations' },
      onlyEndpointId: endpoint.id,
    });
    return event;
  }
}

function normalizeTypes(types: string[] | undefined): string[] {
  if (!types || types.length === 0 || types.includes('*')) return ['*'];
  return [...new Set(types)].sort();
}
