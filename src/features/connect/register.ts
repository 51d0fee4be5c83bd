/**
 * The connect flow: the candidate session tokens (signed), the connect service, the
 * candidate-session credential verifier, and the `connect` router (grant to the provider,
 * the callback's code exchange, redirect mode's result codes).
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import { CLOCK, type Clock } from '../../kernel/clock';
import type { Config } from '../../kernel/config';
import { LOGGER, type Logger } from '../../kernel/logger';
import { CONFIG } from '../../composition/infrastructure';
import type { PluginModule } from '../../platform/composition/plugin-module';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { CREDENTIAL_VERIFIERS } from '../../platform/http/principal';
import { deriveKey } from '../../platform/security/key-derivation';
import { PROFILE_PROVIDER, type ProfileProvider } from '../profiles/domain/profile-provider';
import { OAuthProfileProvider } from '../profiles/provider/oauth-profile-provider';
import { CANDIDATE_SESSIONS } from './domain/candidate-session';
import { ConnectService } from './domain/connect-service';
import { CandidateSessionVerifier } from './http/candidate-session-credential';
import { SignedCandidateSessions } from './http/candidate-session-token';
import { CONNECT_MOUNT_PATH, connectRouter, SESSION_TTL_MS } from './http/connect-router';
import { ConnectResultCodes } from './storage/connect-result-codes';
import { KnexSessionStore } from './storage/oauth-session-store';

/** The OAuth client the connect flow uses for the code exchange, when a provider (or the sandbox) is there. */
function oauthProvider(container: DependencyContainer): OAuthProfileProvider | undefined {
  const provider = container.resolve<ProfileProvider>(PROFILE_PROVIDER);
  return provider instanceof OAuthProfileProvider ? provider : undefined;
}

export const connectModule: PluginModule = {
  name: 'connect',
  register(container, { config }) {
    container.register(CANDIDATE_SESSIONS, {
      useFactory: instanceCachingFactory((c) => new SignedCandidateSessions(deriveKey(config.secretKey, 'candidate-session-signing'), c.resolve<Clock>(CLOCK))),
    });
    container.registerSingleton(ConnectService);
    container.register(CREDENTIAL_VERIFIERS, { useClass: CandidateSessionVerifier });
  },
  routers: [
    {
      name: 'connect',
      create: (container, kit) => {
        const config = container.resolve<Config>(CONFIG);
        const db = container.resolve<Database>(DATABASE);
        return connectRouter({
          config,
          sessionStore: new KnexSessionStore(db, SESSION_TTL_MS),
          resultCodes: new ConnectResultCodes(db),
          provider: oauthProvider(container),
          connect: container.resolve(ConnectService),
          kit,
          logger: container.resolve<Logger>(LOGGER),
          mountPath: `${config.mountPath}${CONNECT_MOUNT_PATH}`,
        });
      },
    },
  ],
};
