/**
 * SMS after the send: delivery status (Twilio's callbacks, SMPP receipts) recorded on the
 * run and published as `sms.delivery_updated`; STOP / START opt-outs per organization
 * (`hi_sms_opt_outs`, numbers as HMACs, registered with the privacy registry); Twilio's
 * signed webhooks at /v1/sms/twilio.
 */
import { instanceCachingFactory } from 'tsyringe';
import { CLOCK, type Clock } from '../../kernel/clock';
import { EVENT_PUBLISHER, type EventPublisher } from '../../kernel/events';
import { LOGGER, type Logger } from '../../kernel/logger';
import { twilioWebhookRouter } from '../../connectors/twilio/twilio-webhooks';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { deriveKey } from '../../platform/security/key-derivation';
import { CONNECTION_REPOSITORY, type ConnectionRepository } from '../connections/domain/connection';
import { candidateStore } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { SMS_DELIVERY_REPOSITORY, type SmsDeliveryRepository } from './domain/delivery-status';
import { SMS_INBOUND, SmsInbound } from './domain/sms-inbound';
import { hashPhone, SMS_OPT_OUT_REPOSITORY, SmsOptOuts, type SmsOptOutRepository } from './domain/sms-opt-outs';
import { KnexSmsDeliveryRepository } from './storage/knex-sms-delivery-repository';
import { KnexSmsOptOutRepository } from './storage/knex-sms-opt-out-repository';

const SMS_PUBLIC_BASE_URL = Symbol('SmsPublicBaseUrl');

export const smsModule: PluginModule = {
  name: 'sms',
  register(container, { config }) {
    const db = container.resolve<Database>(DATABASE);
    const key = deriveKey(config.secretKey, 'sms-opt-out-destinations');
    container.register(SMS_PUBLIC_BASE_URL, { useValue: config.baseUrl });
    container.register(SMS_DELIVERY_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexSmsDeliveryRepository(db)) });
    container.register(SMS_OPT_OUT_REPOSITORY, { useFactory: instanceCachingFactory(() => new KnexSmsOptOutRepository(db)) });
    container.register(SmsOptOuts, { useFactory: instanceCachingFactory((c) => new SmsOptOuts(c.resolve<SmsOptOutRepository>(SMS_OPT_OUT_REPOSITORY), key)) });
    container.register(SMS_INBOUND, {
      useFactory: instanceCachingFactory(
        (c) =>
          new SmsInbound(
            c.resolve<SmsDeliveryRepository>(SMS_DELIVERY_REPOSITORY),
            c.resolve(SmsOptOuts),
            c.resolve<EventPublisher>(EVENT_PUBLISHER),
            c.resolve<Logger>(LOGGER),
          ),
      ),
    });
    registerCandidateData(
      container,
      // Found by hashing the phone numbers the request names: the clear number is never stored.
      candidateStore(
        tableStore(db, {
          name: 'sms_opt_outs',
          description: 'Numbers that replied STOP to the organization’s SMS (an HMAC of the number, the keyword, when)',
          table: 'hi_sms_opt_outs',
          where: (q, s) =>
            q.where({ organization_id: s.organizationId }).whereIn(
              'phone_hash',
              s.phones.map((p) => hashPhone(key, p)),
            ),
        }),
      ),
    );
  },
  routers: [
    {
      name: 'sms-twilio',
      create: (container, kit) =>
        twilioWebhookRouter(
          {
            connections: container.resolve<ConnectionRepository>(CONNECTION_REPOSITORY),
            inbound: container.resolve<SmsInbound>(SMS_INBOUND),
            publicBaseUrl: container.resolve<string>(SMS_PUBLIC_BASE_URL),
            now: () => container.resolve<Clock>(CLOCK).now(),
          },
          kit,
        ),
    },
  ],
};
