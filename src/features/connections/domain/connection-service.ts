/**
 * Connections an organization manages: create (settings and credentials validated by the
 * connector's own schemas), list, get, update (settings replaced, credentials rotated),
 * delete, and test (a real round trip; the outcome is stored on the connection). A
 * connection changed since its test is `untested` again: only a verified connection runs
 * actions. Credentials go in and never come out of this service.
 */
import type { z } from 'zod';
import { conflict, DomainError, invalid, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import type { Connection, ConnectionRepository } from './connection';
import type { ConnectionTestOutcome, ConnectorDefinition } from './connector-definition';
import { ANY_DESTINATION, destinationNotAllowed, internalDestination, refusedOutcome, type DestinationGuard } from './connection-destinations';

export interface ConnectionInput {
  connector: string;
  settings: unknown;
  credentials: unknown;
}

export interface ConnectionChange {
  settings?: unknown;
  credentials?: unknown;
}

function throwMissing(path: string): never {
  throw invalid('parameter_missing', `Missing required parameter: ${path}`, path);
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown, field: 'settings' | 'credentials'): T {
  const input = value ?? {};
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = [field, ...issue.path.map(String)].join('.');
  const given = issue.path.reduce<unknown>(
    (v, key) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined),
    input,
  );
  // The same codes as the request validation; never echo a credential's value: the issue names the rule only.
  if (issue.code === 'invalid_type' && given === undefined) return throwMissing(path);
  throw invalid('parameter_invalid', `Invalid ${path}: ${issue.message}`, path);
}

export class ConnectionService {
  constructor(
    private readonly repository: ConnectionRepository,
    readonly definitions: readonly ConnectorDefinition[],
    private readonly now: () => Date,
    /** Told when a connection was verified or deleted: licenses waiting for one (requires_connection) may move on. */
    private readonly onConnectionsChanged: (organizationId: string) => Promise<unknown> = async () => undefined,
    /** The SSRF guard: settings may not point at the deployment's own network. */
    private readonly destinations: DestinationGuard = ANY_DESTINATION,
  ) {}

  definition(key: string): ConnectorDefinition {
    const definition = this.definitions.find((d) => d.key === key);
    if (!definition) {
      throw invalid('connector_unknown', `No connector '${key}'; this build offers: ${this.definitions.map((d) => d.key).join(', ')}`, 'connector');
    }
    return definition;
  }

  async create(organizationId: string, input: ConnectionInput): Promise<Connection> {
    const definition = this.definition(input.connector);
    const settings = parseWith(definition.settings, input.settings, 'settings') as Record<string, unknown>;
    const credentials = parseWith(definition.credentials, input.credentials, 'credentials') as Record<string, unknown>;
    await this.refuseInternal(definition, settings);
    const existing = (await this.repository.list(organizationId)).find((c) => c.connector === definition.key);
    if (existing)
      throw conflict('connection_exists', `The organization already has a '${definition.key}' connection (${existing.id}); update it instead`, {
        param: 'connector',
      });
    const now = this.now();
    const connection: Connection = {
      id: newId('conn'),
      organizationId,
      connector: definition.key,
      settings,
      status: 'untested',
      lastTestCode: null,
      lastTestMessage: null,
      lastTestedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await this.repository.create(connection, credentials);
    } catch (error) {
      if ((error as { code?: string }).code === '23505')
        throw conflict('connection_exists', `The organization already has a '${definition.key}' connection`, { param: 'connector' });
      throw error;
    }
    return connection;
  }

  list(organizationId: string): Promise<Connection[]> {
    return this.repository.list(organizationId);
  }

  async get(organizationId: string, id: string): Promise<Connection> {
    const connection = await this.repository.find(organizationId, id);
    if (!connection) throw notFound('connection', id);
    return connection;
  }

  async update(organizationId: string, id: string, change: ConnectionChange): Promise<Connection> {
    const connection = await this.get(organizationId, id);
    const definition = this.definition(connection.connector);
    const settings =
      change.settings === undefined ? connection.settings : (parseWith(definition.settings, change.settings, 'settings') as Record<string, unknown>);
    const credentials =
      change.credentials === undefined ? undefined : (parseWith(definition.credentials, change.credentials, 'credentials') as Record<string, unknown>);
    if (change.settings !== undefined) await this.refuseInternal(definition, settings);
    const updated: Connection = {
      ...connection,
      settings,
      status: 'untested',
      lastTestCode: null,
      lastTestMessage: null,
      lastTestedAt: null,
      updatedAt: this.now(),
    };
    await this.repository.update(updated, credentials);
    return updated;
  }

  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await this.repository.delete(organizationId, id))) throw notFound('connection', id);
    // Without its own connection of that kind, the organization may now use the host's or the deployment's.
    await this.onConnectionsChanged(organizationId);
  }

  /** A real round trip to the counterpart; the outcome is the connection's new status. */
  async test(organizationId: string, id: string): Promise<{ connection: Connection; outcome: ConnectionTestOutcome }> {
    const connection = await this.get(organizationId, id);
    const definition = this.definition(connection.connector);
    let credentials: Record<string, unknown>;
    try {
      credentials = await this.repository.credentialsOf(connection);
    } catch {
      // The ciphertext no longer opens (SECRET_KEY changed): the credentials must be entered again.
      throw new DomainError(
        'conflict',
        'connection_credentials_unreadable',
        'The stored credentials cannot be decrypted; update the connection with new credentials',
      );
    }
    // Checked again at each test: a name saved as public may resolve inward since.
    const refused = await internalDestination(this.destinations, definition.destinations?.(connection.settings));
    const outcome = refused ? refusedOutcome(refused) : await definition.test(connection.settings, credentials, this.destinations.network);
    const now = this.now();
    const tested: Connection = {
      ...connection,
      status: outcome.ok ? 'verified' : 'failed',
      lastTestCode: outcome.ok ? 'ok' : outcome.code,
      lastTestMessage: outcome.ok ? outcome.detail : outcome.message,
      lastTestedAt: now,
      updatedAt: connection.updatedAt,
    };
    await this.repository.update(tested);
    if (outcome.ok) await this.onConnectionsChanged(organizationId);
    return { connection: tested, outcome };
  }

  private async refuseInternal(definition: ConnectorDefinition, settings: Record<string, unknown>): Promise<void> {
    const refused = await internalDestination(this.destinations, definition.destinations?.(settings));
    if (refused) throw destinationNotAllowed(refused);
  }
}
