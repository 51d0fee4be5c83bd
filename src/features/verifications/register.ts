/**
 * Verifications (`sms.two_factor_auth`): the host sends a one-time code by SMS or email
 * and checks it, like Twilio Verify. Codes and destinations are kept only as HMACs; the
 * send is an action run through the organization's resolved connector.
 */
import { VERIFICATION_ACTION } from './domain/verification';
import { instanceCachingFactory } from 'tsyringe';
import type { PluginModule } from '../../platform/composition/plugin-module';
import { CLOCK, type Clock } from '../../kernel/clock';
import { deriveKey } from '../../platform/security/key-derivation';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { candidateStore } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { tableStore } from '../privacy/storage/table-store';
import { HookGate } from '../hooks/domain/hook-gate';
import { NOTIFICATION_CONNECTOR, SMS_CONNECTOR, type NotificationConnector, type SmsConnector } from '../hooks/domain/connectors';
import { VERIFICATION_REPOSITORY, type VerificationRepository } from './domain/verification';
import { hashDestination, VerificationService } from './domain/verification-service';
import { verificationRoutes } from './http/verifications-router';
import { KnexVerificationRepository } from './storage/knex-verification-repository';
import { TokenCipher } from '../../platform/security/token-cipher';
import { TOTP_FACTOR_REPOSITORY, type TotpFactorRepository } from './domain/totp-factor';
import { TotpFactors } from './domain/totp-factors';
import { KnexTotpFactorRepository } from './storage/knex-totp-factor-repository';

export const verificationsModule: PluginModule = {
  name: 'verifications',
  builtInActions: [VERIFICATION_ACTION],
  register(container, { config }) {
    const keys = { code: deriveKey(config.secretKey, 'verification-codes'), destination: deriveKey(config.secretKey, 'verification-destinations') };
    container.register(VERIFICATION_REPOSITORY, {
      useFactory: instanceCachingFactory((c) => new KnexVerificationRepository(c.resolve<Database>(DATABASE))),
    });
    container.register(VerificationService, {
      useFactory: instanceCachingFactory(
        (c) =>
          new VerificationService(
            c.resolve<VerificationRepository>(VERIFICATION_REPOSITORY),
            { sms: c.resolve<SmsConnector>(SMS_CONNECTOR), email: c.resolve<NotificationConnector>(NOTIFICATION_CONNECTOR) },
            c.resolve(HookGate),
            keys,
            () => c.resolve<Clock>(CLOCK).now(),
          ),
      ),
    });
    const totpCipher = new TokenCipher(deriveKey(config.secretKey, 'totp-secret-encryption'));
    container.register(TOTP_FACTOR_REPOSITORY, {
      useFactory: instanceCachingFactory((c) => new KnexTotpFactorRepository(c.resolve<Database>(DATABASE), totpCipher)),
    });
    container.register(TotpFactors, {
      useFactory: instanceCachingFactory(
        (c) =>
          new TotpFactors(
            c.resolve<TotpFactorRepository>(TOTP_FACTOR_REPOSITORY),
            (identity) => hashDestination(keys.destination, 'totp', identity),
            () => c.resolve<Clock>(CLOCK).now(),
          ),
      ),
    });
    registerCandidateData(
      container,
      candidateStore(
        tableStore(container.resolve<Database>(DATABASE), {
          name: 'totp_factors',
          description:
            'TOTP factors enrolled for the candidate (matched by an HMAC of the email or phone given as identity; the secret is sealed and never exported)',
          table: 'hi_totp_factors',
          omit: ['secret_ciphertext'],
          where: (q, s) =>
            q.where({ organization_id: s.organizationId }).whereIn(
              'identity_hash',
              [...s.phones, ...s.emails].map((i) => hashDestination(keys.destination, 'totp', i)),
            ),
        }),
      ),
    );
    registerCandidateData(
      container,
      // Rows are found by hashing the phone numbers and addresses the request names: the clear destination is never stored.
      candidateStore(
        tableStore(container.resolve<Database>(DATABASE), {
          name: 'verifications',
          description: 'Verification codes sent to the candidate (matched by an HMAC of the email or phone given; the code itself is only a hash)',
          table: 'hi_verifications',
          omit: ['code_hash'],
          where: (q, s) => {
            const hashes = [
              ...s.phones.map((p) => hashDestination(keys.destination, 'sms', p)),
              ...s.emails.map((e) => hashDestination(keys.destination, 'email', e)),
            ];
            return q.where({ organization_id: s.organizationId }).whereIn('destination_hash', hashes);
          },
        }),
      ),
    );
  },
  routers: [
    {
      name: 'verifications',
      create: (container, kit) => kit.build('verifications', verificationRoutes(container.resolve(VerificationService), container.resolve(TotpFactors))),
    },
  ],
};
