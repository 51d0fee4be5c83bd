/**
 * Events and webhooks: the durable event log (every published event goes through it, then
 * on to the host's hook bus), the events API, webhook endpoints, signed deliveries on the
 * `webhook-delivery` queue and the sweep that re-enqueues deliveries whose job was lost.
 */
import type { DependencyContainer } from 'tsyringe';
import type { Config } from '../config';
import { EVENT_LOG, type EventLog } from '../domain/events/event';
import { RecordingEventPublisher } from '../domain/events/recording-publisher';
import { CLOCK, type Clock } from '../domain/shared/clock';
import { EVENT_PUBLISHER, type EventPublisher } from '../domain/shared/events';
import { LOGGER, type Logger } from '../domain/shared/logger';
import { DESTINATION_POLICY, RETRY_SCHEDULE, WEBHOOK_SENDER, WEBHOOK_SETTINGS, WEBHOOK_SIGNER, type WebhookSettings } from '../domain/webhooks/ports';
import type { RetrySchedule } from '../domain/webhooks/retry-schedule';
import { WEBHOOK_DELIVERY_REPOSITORY, type WebhookDeliveryRepository } from '../domain/webhooks/webhook-delivery';
import { WebhookDeliveryService } from '../domain/webhooks/webhook-delivery-service';
import { WEBHOOK_ENDPOINT_REPOSITORY } from '../domain/webhooks/webhook-endpoint';
import { WebhookEndpointService } from '../domain/webhooks/webhook-endpoint-service';
import { eventRoutes } from '../http/routers/events-router';
import { webhookEndpointRoutes } from '../http/routers/webhook-endpoints-router';
import { deriveKey } from '../security/key-derivation';
import { TokenCipher } from '../security/token-cipher';
import { KnexEventLog } from '../storage/event-log';
import { KnexWebhookDeliveryRepository } from '../storage/webhook-delivery-repository';
import { KnexWebhookEndpointRepository, WEBHOOK_SECRET_CIPHER } from '../storage/webhook-endpoint-repository';
import { WebhookDeliverySweep } from '../webhooks/delivery-sweep';
import { ResolvingDestinationPolicy } from '../webhooks/destination-policy';
import { HttpWebhookSender } from '../webhooks/http-webhook-sender';
import { StandardWebhooksSigner } from '../webhooks/standard-webhooks-signer';
import { WebhookDeliveryProcessor } from '../../jobs/webhook-delivery';
import { CONFIG } from './infrastructure';
import type { PluginModule } from './module';

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
    return async () => {
      await stop();
      sender.close();
    };
  },
};
