/**
 * Events and webhooks: the durable event log (every published event goes through it, then
 * on to the host's hook bus), the events API, webhook endpoints, signed deliveries on the
 * `webhook-delivery` queue and the sweep that re-enqueues deliveries whose job was lost.
 */
import type { DependencyContainer } from 'tsyringe';
import type { Config } from '../../kernel/config';
import { EVENT_LOG, type EventLog } from '../events/domain/event';
import { RecordingEventPublisher } from '../events/domain/recording-publisher';
import { CLOCK, type Clock } from '../../kernel/clock';
import { EVENT_PUBLISHER, type EventPublisher } from '../../kernel/events';
import { LOGGER, type Logger } from '../../kernel/logger';
import {
  DESTINATION_FETCH,
  DESTINATION_POLICY,
  RETRY_SCHEDULE,
  WEBHOOK_SENDER,
  WEBHOOK_SETTINGS,
  WEBHOOK_SIGNER,
  type DestinationFetch,
  type WebhookSettings,
} from './domain/ports';
import { pinnedNetwork, type OutboundNetwork } from '../../platform/network/pinned-network';
import type { RetrySchedule } from '../../kernel/delivery/backoff';
import { WEBHOOK_DELIVERY_REPOSITORY, type WebhookDeliveryRepository } from './domain/webhook-delivery';
import { WebhookDeliveryService } from './domain/webhook-delivery-service';
import { WEBHOOK_ENDPOINT_REPOSITORY } from './domain/webhook-endpoint';
import { WebhookEndpointService } from './domain/webhook-endpoint-service';
import { eventRoutes } from '../events/http/events-router';
import { webhookEndpointRoutes } from './http/webhook-endpoints-router';
import { deriveKey } from '../../platform/security/key-derivation';
import { TokenCipher } from '../../platform/security/token-cipher';
import { KnexEventLog } from '../events/storage/event-log';
import { KnexWebhookDeliveryRepository } from './storage/webhook-delivery-repository';
import { KnexWebhookEndpointRepository, WEBHOOK_SECRET_CIPHER } from './storage/webhook-endpoint-repository';
import { WebhookDeliverySweep } from './domain/delivery-sweep';
import { ResolvingDestinationPolicy } from './sending/destination-policy';
import { HttpWebhookSender } from './sending/http-webhook-sender';
import { StandardWebhooksSigner } from './sending/standard-webhooks-signer';
import { WebhookDeliveryProcessor } from './jobs/webhook-delivery';
import { CONFIG } from '../../composition/infrastructure';
import type { PluginModule } from '../../platform/composition/plugin-module';

export const webhooksModule: PluginModule = {
  name: 'webhooks',
  register(container, { config, logger }) {
    const settings = config.webhooks;
    container.register(WEBHOOK_SECRET_CIPHER, { useValue: new TokenCipher(deriveKey(config.secretKey, 'webhook-secret-encryption')) });
    container.registerSingleton(EVENT_LOG, KnexEventLog);
    container.registerSingleton(WEBHOOK_ENDPOINT_REPOSITORY, KnexWebhookEndpointRepository);
    container.registerSingleton(WEBHOOK_DELIVERY_REPOSITORY, KnexWebhookDeliveryRepository);
    container.register(WEBHOOK_SIGNER, { useValue: new StandardWebhooksSigner() });
    const sender = new HttpWebhookSender(settings.allowedInternalHosts);
    container.register(WEBHOOK_SENDER, { useValue: sender });
    container.register(DESTINATION_POLICY, {
      useValue: new ResolvingDestinationPolicy({
        production: config.env === 'production',
        allowedInternalHosts: settings.allowedInternalHosts,
        httpAllowedHosts: settings.httpAllowedHosts,
      }),
    });
    // Time-stamp authorities and import feeds: the policy's addresses, pinned at each connection.
    container.register<DestinationFetch>(DESTINATION_FETCH, { useValue: pinnedNetwork({ allowedInternalHosts: settings.allowedInternalHosts }) });
    container.register<RetrySchedule>(RETRY_SCHEDULE, {
      useValue: { baseMs: settings.retryBaseMs, maxDelayMs: settings.retryMaxDelayMs, windowMs: settings.retryWindowMs },
    });
    container.register<WebhookSettings>(WEBHOOK_SETTINGS, { useValue: { timeoutMs: settings.timeoutMs, secretOverlapSeconds: settings.secretOverlapSeconds } });
    container.registerSingleton(WebhookEndpointService);
    container.registerSingleton(WebhookDeliveryService);
    // Every event the domain publishes is recorded (and fanned out to webhooks) before it reaches the host's bus.
    const hostBus = container.resolve<EventPublisher>(EVENT_PUBLISHER);
    container.register<EventPublisher>(EVENT_PUBLISHER, {
      useFactory: (c) => new RecordingEventPublisher(c.resolve<EventLog>(EVENT_LOG), hostBus, logger),
    });
  },
  routers: [
    {
      name: 'webhook-endpoints',
      create: (container, kit) =>
        kit.build(
          'webhook-endpoints',
          webhookEndpointRoutes(container.resolve(WebhookEndpointService), container.resolve<WebhookDeliveryRepository>(WEBHOOK_DELIVERY_REPOSITORY), () =>
            container.resolve<Clock>(CLOCK).now(),
          ),
        ),
    },
    {
      name: 'events',
      create: (container, kit) => kit.build('events', eventRoutes(container.resolve<EventLog>(EVENT_LOG))),
    },
  ],
  processors: (container: DependencyContainer) => [container.resolve(WebhookDeliveryProcessor)],
  async start(container) {
    const config = container.resolve<Config>(CONFIG);
    const sweep = new WebhookDeliverySweep(
      container.resolve<WebhookDeliveryRepository>(WEBHOOK_DELIVERY_REPOSITORY),
      container.resolve<EventLog>(EVENT_LOG),
      container.resolve<Clock>(CLOCK),
      container.resolve<Logger>(LOGGER),
      { intervalMs: config.webhooks.sweepIntervalMs, graceMs: config.webhooks.sweepGraceMs, retentionDays: config.eventRetentionDays },
    );
    const stop = sweep.start();
    const sender = container.resolve<HttpWebhookSender>(WEBHOOK_SENDER);
    const pinned = container.resolve<OutboundNetwork>(DESTINATION_FETCH);
    return async () => {
      await stop();
      sender.close();
      await pinned.close();
    };
  },
};
