/**
 * Which implementation performs an organization's step of a given kind, in this order:
 *   1. the organization's own connection of that kind (only once verified by a test);
 *   2. an implementation the embedding host supplied through the host contract;
 *   3. the operator's deployment default (configuration, e.g. the ATS's SMTP relay);
 *   4. the sandbox, outside production only (livemode: false: nothing leaves the machine).
 * None: the step fails with `connection_missing`, never a pretended success.
 */
import { DomainError } from '../../../kernel/errors';
import type { Connection, ConnectionRepository } from './connection';
import type { SmsInboundSink } from '../../sms/domain/sms-inbound';
import { internalDestination, destinationRefused, type DestinationGuard } from './connection-destinations';
import { CONNECTOR_KINDS, type ConnectorDefinition, type ConnectorKind, type OpenContext, type PortsByKind } from './connector-definition';

export interface ResolvedPort<K extends ConnectorKind> {
  port: PortsByKind[K];
  /** smtp, twilio, …, `host`, `sandbox`. */
  connector: string;
  connectionId: string | null;
  livemode: boolean;
}

export interface DeploymentDefault {
  kind: ConnectorKind;
  connector: string;
  settings: unknown;
  credentials: unknown;
}

export interface ResolverOptions {
  production: boolean;
  hostPorts: Partial<PortsByKind>;
  defaults: readonly DeploymentDefault[];
  sandbox: Partial<PortsByKind>;
  /** The plugin's public address, for counterparts' callbacks (Twilio's StatusCallback). */
  publicBaseUrl?: string;
  /** Where SMS connectors hand receipts and inbound messages (resolved late: it needs the event log). */
  smsInbound?: () => SmsInboundSink | undefined;
  /** The SSRF guard for organizations' own connections (defaults and host ports are the operator's). */
  destinations?: DestinationGuard;
}

export const connectionMissing = (kind: string, action: string) =>
  new DomainError('conflict', 'connection_missing', `No verified ${kind} connection for ${action}: create one at /v1/integrations/connections and test it`, {
    param: 'connector',
  });

type Opened = { port: PortsByKind[ConnectorKind] & { close?(): void }; version: string };

export class ConnectorResolver {
  /** Pooled ports per connection, reopened when the connection changes. */
  private readonly opened = new Map<string, Opened>();

  constructor(
    private readonly connections: ConnectionRepository,
    private readonly definitions: readonly ConnectorDefinition[],
    private readonly options: ResolverOptions,
  ) {}

  kindOf(connector: string): ConnectorKind | undefined {
    return this.definitions.find((d) => d.key === connector)?.kind;
  }

  /** The organization's connections that fill `kind`, verified or not. */
  async connectionsOf(organizationId: string, kind: ConnectorKind): Promise<Connection[]> {
    return (await this.connections.list(organizationId)).filter((c) => this.kindOf(c.connector) === kind);
  }

  /** Whether a step of `kind` would run for the organization, and through what. */
  async availability(
    organizationId: string | undefined,
    kind: ConnectorKind,
  ): Promise<{ source: 'connection' | 'host' | 'default' | 'sandbox'; connector: string } | undefined> {
    const own = organizationId ? await this.connectionsOf(organizationId, kind) : [];
    if (own.length > 0) {
      const verified = own.find((c) => c.status === 'verified');
      return verified ? { source: 'connection', connector: verified.connector } : undefined;
    }
    if (this.options.hostPorts[kind]) return { source: 'host', connector: 'host' };
    const fallback = this.options.defaults.find((d) => d.kind === kind);
    if (fallback) return { source: 'default', connector: fallback.connector };
    if (!this.options.production && this.options.sandbox[kind]) return { source: 'sandbox', connector: 'sandbox' };
    return undefined;
  }

  /**
   * Whether the organization chose to download `kind`'s files (its verified connection of that
   * kind is a download connector): handlers then record without delivering, sweeps skip it.
   */
  async deliversByDownload(organizationId: string, kind: ConnectorKind): Promise<boolean> {
    const available = await this.availability(organizationId, kind);
    return available?.source === 'connection' && this.definitions.some((d) => d.key === available.connector && d.downloadOnly === true);
  }

  /** The kinds a step of the organization can go through now. */
  async availableKinds(organizationId: string | undefined): Promise<Set<string>> {
    const found = await Promise.all(CONNECTOR_KINDS.map(async (kind) => ((await this.availability(organizationId, kind)) ? kind : undefined)));
    return new Set(found.filter((k): k is ConnectorKind => k !== undefined));
  }

  async resolve<K extends ConnectorKind>(organizationId: string, kind: K, action: string): Promise<ResolvedPort<K>> {
    const own = await this.connectionsOf(organizationId, kind);
    // The organization's own connection wins, even over the deployment default: a
    // connection not (or no longer) verified stops its steps rather than sending as someone else.
    if (own.length > 0) {
      const verified = own.find((c) => c.status === 'verified');
      if (!verified) throw connectionMissing(kind, action);
      return { port: (await this.openConnection(verified)) as PortsByKind[K], connector: verified.connector, connectionId: verified.id, livemode: true };
    }
    const hosted = this.options.hostPorts[kind];
    if (hosted) return { port: hosted as PortsByKind[K], connector: 'host', connectionId: null, livemode: true };
    const fallback = this.options.defaults.find((d) => d.kind === kind);
    if (fallback) return { port: this.openDefault(fallback) as PortsByKind[K], connector: fallback.connector, connectionId: null, livemode: true };
    const sandbox = this.options.sandbox[kind];
    if (sandbox && !this.options.production) return { port: sandbox as PortsByKind[K], connector: 'sandbox', connectionId: null, livemode: false };
    throw connectionMissing(kind, action);
  }

  /**
   * One named connection of the organization (an interviewer's own calendar): verified and of
   * `kind`, else `connection_not_found` (404: another organization's id looks the same).
   */
  async connection<K extends ConnectorKind>(organizationId: string, connectionId: string, kind: K): Promise<ResolvedPort<K>> {
    const found = (await this.connectionsOf(organizationId, kind)).find((c) => c.id === connectionId);
    if (!found)
      throw new DomainError('not_found', 'connection_not_found', `No ${kind} connection ${connectionId} in this organization`, { param: 'connection_id' });
    if (found.status !== 'verified')
      throw new DomainError(
        'conflict',
        'connection_not_verified',
        `The connection ${connectionId} is not verified (POST /v1/integrations/connections/${connectionId}/test)`,
      );
    return { port: (await this.openConnection(found)) as PortsByKind[K], connector: found.connector, connectionId: found.id, livemode: true };
  }

  /**
   * One connection's own port, whatever its status (a webhook addressed to it proves itself
   * by its signature); undefined when the organization has no such connection of `kind`.
   */
  async connectionPort<K extends ConnectorKind>(
    organizationId: string,
    connectionId: string,
    kind: K,
  ): Promise<{ port: PortsByKind[K]; connector: string } | undefined> {
    const connection = await this.connections.find(organizationId, connectionId);
    if (!connection || this.kindOf(connection.connector) !== kind) return undefined;
    return { port: (await this.openConnection(connection)) as PortsByKind[K], connector: connection.connector };
  }

  close(): void {
    for (const { port } of this.opened.values()) port.close?.();
    this.opened.clear();
  }

  private async openConnection(connection: Connection) {
    const version = `${connection.updatedAt.getTime()}:${connection.lastTestedAt?.getTime() ?? 0}`;
    const cached = this.opened.get(connection.id);
    if (cached?.version === version) return cached.port;
    cached?.port.close?.();
    const definition = this.definitions.find((d) => d.key === connection.connector)!;
    const settings = definition.settings.parse(connection.settings);
    // Once per connection version and process: the port is pooled until the connection changes.
    const refused = this.options.destinations ? await internalDestination(this.options.destinations, definition.destinations?.(settings)) : undefined;
    if (refused) throw destinationRefused(refused);
    const credentials = await this.connections.credentialsOf(connection);
    // …and pinned: every connection the port opens is checked again at connect time.
    const network = this.options.destinations?.network;
    const port = definition.open(settings, definition.credentials.parse(credentials), {
      ...this.context(connection.organizationId, connection.id),
      ...(network ? { network } : {}),
    });
    this.opened.set(connection.id, { port, version });
    return port;
  }

  private openDefault(fallback: DeploymentDefault) {
    const key = `default:${fallback.connector}`;
    const cached = this.opened.get(key);
    if (cached) return cached.port;
    const definition = this.definitions.find((d) => d.key === fallback.connector)!;
    const port = definition.open(definition.settings.parse(fallback.settings), definition.credentials.parse(fallback.credentials), this.context(null, null));
    this.opened.set(key, { port, version: 'default' });
    return port;
  }

  private context(organizationId: string | null, connectionId: string | null): OpenContext {
    const sms = this.options.smsInbound?.();
    return {
      organizationId,
      connectionId,
      ...(this.options.publicBaseUrl ? { publicBaseUrl: this.options.publicBaseUrl } : {}),
      ...(sms ? { sms } : {}),
    };
  }
}
