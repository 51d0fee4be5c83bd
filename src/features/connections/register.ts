/**
 * Connections: the connector modules of this build, the organizations' connections
 * (credentials sealed with a key of their own), and the resolver that picks, per
 * organization and step, the connection, the host's implementation, the deployment default
 * or (outside production only) the sandbox.
 */
import { noCandidateData } from '../privacy/domain/candidate-data';
import { registerCandidateData } from '../privacy/register';
import { instanceCachingFactory } from 'tsyringe';
import { CONNECTORS } from '../../connectors';
import { smtpDeploymentDefault } from '../../connectors/smtp/deployment-default';
import { SandboxConnectors, SandboxDeliveryLog } from '../../connectors/sandbox/sandbox-connectors';
import { SandboxBackgroundChecks } from '../../connectors/sandbox/sandbox-background-checks';
import type { PluginModule } from '../../platform/composition/plugin-module';
import { CLOCK, type Clock } from '../../kernel/clock';
import { deriveKey } from '../../platform/security/key-derivation';
import { TokenCipher } from '../../platform/security/token-cipher';
import type { Database } from '../../platform/database/database';
import { DATABASE } from '../../platform/database/tokens';
import { CONNECTION_REPOSITORY, type ConnectionRepository } from './domain/connection';
import { CachedConnectionRepository } from './storage/cached-connections';
import { CacheSync } from '../../platform/caching/cache-sync';
import { ConnectionService } from './domain/connection-service';
import { LicenseService } from '../licensing/domain/license-service';
import { CONNECTOR_DEFINITIONS } from './domain/connector-definition';
import { ConnectorResolver, type DeploymentDefault } from './domain/connector-resolver';
import { SMS_INBOUND, type SmsInboundSink } from '../sms/domain/sms-inbound';
import { connectionRoutes } from './http/connections-router';
import { checkHost } from '../../platform/network/address-policy';
import { pinnedNetwork, type OutboundNetwork } from '../../platform/network/pinned-network';
import type { DestinationGuard } from './domain/connection-destinations';
import { currentHostConnectors } from '../../composition/retired-host-fields';
import { KnexConnectionRepository } from './storage/knex-connection-repository';

export const CONNECTOR_RESOLVER = Symbol('ConnectorResolver');
/** The pinned network organizations' connections connect through (closed when the plugin stops). */
const CONNECTOR_NETWORK = Symbol('ConnectorNetwork');

export const connectionsModule: PluginModule = {
  name: 'connections',
  register(container, { config, host }) {
    container.register(CONNECTOR_DEFINITIONS, { useValue: CONNECTORS });
    registerCandidateData(container, noCandidateData('hi_connections', "Organizations' accounts at their counterparts: settings and encrypted credentials"));
    const cipher = new TokenCipher(deriveKey(config.secretKey, 'connection-credentials-encryption'));
    container.register(CONNECTION_REPOSITORY, {
      // Each run resolves its connector from the organization's list: cached per process, dropped everywhere on a change.
      useFactory: instanceCachingFactory(
        (c) =>
          new CachedConnectionRepository(new KnexConnectionRepository(c.resolve<Database>(DATABASE), cipher), c.resolve(CacheSync), {
            ttlMs: config.entitlementCacheTtlSeconds * 1000,
            maxEntries: 50_000,
          }),
      ),
    });
    // Checked when saved, tested and opened; pinned at every connection the connector makes.
    const network = pinnedNetwork({ allowedInternalHosts: config.connectorAllowedInternalHosts });
    container.register(CONNECTOR_NETWORK, { useValue: network });
    const destinations: DestinationGuard = { check: (host) => checkHost(host, config.connectorAllowedInternalHosts), network };
    container.register(ConnectionService, {
      useFactory: instanceCachingFactory(
        (c) =>
          new ConnectionService(
            c.resolve<ConnectionRepository>(CONNECTION_REPOSITORY),
            CONNECTORS,
            () => c.resolve<Clock>(CLOCK).now(),
            // No selling air: a license bought before its connection existed becomes active now.
            (organizationId) => (c.isRegistered(LicenseService) ? c.resolve(LicenseService).connectionsChanged(organizationId) : Promise.resolve()),
            destinations,
          ),
      ),
    });
    const production = config.env === 'production';
    const defaults: DeploymentDefault[] = config.smtp ? [smtpDeploymentDefault(config.smtp)] : [];
    container.register(CONNECTOR_RESOLVER, {
      useFactory: instanceCachingFactory((c) => {
        // Test mode only: the sandbox answers with livemode false; production never constructs it.
        const log = production ? undefined : new SandboxDeliveryLog(c.resolve<Database>(DATABASE));
        const sandbox = log ? new SandboxConnectors(log) : undefined;
        return new ConnectorResolver(c.resolve<ConnectionRepository>(CONNECTION_REPOSITORY), CONNECTORS, {
          production,
          hostPorts: currentHostConnectors(host.connectors),
          defaults,
          sandbox: sandbox
            ? { email: sandbox, sms: sandbox, video_meetings: sandbox, hris: sandbox, background_checks: new SandboxBackgroundChecks(log!) }
            : {},
          publicBaseUrl: config.baseUrl,
          smsInbound: () => (c.isRegistered(SMS_INBOUND) ? c.resolve<SmsInboundSink>(SMS_INBOUND) : undefined),
          destinations,
        });
      }),
    });
  },
  routers: [{ name: 'connections', create: (container, kit) => kit.build('connections', connectionRoutes(container.resolve(ConnectionService))) }],
  async start(container) {
    return async () => {
      container.resolve<ConnectorResolver>(CONNECTOR_RESOLVER).close();
      await container.resolve<OutboundNetwork>(CONNECTOR_NETWORK).close();
    };
  },
};
