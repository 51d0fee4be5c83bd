/** An organization's connection to a counterpart (`conn_…`): settings in clear, credentials sealed. */
export type ConnectionStatus = 'untested' | 'verified' | 'failed';

export interface Connection {
  id: string;
  organizationId: string;
  connector: string;
  settings: Record<string, unknown>;
  status: ConnectionStatus;
  lastTestCode: string | null;
  lastTestMessage: string | null;
  lastTestedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ConnectionRepository {
  /** Stores the connection with its credentials (sealed by the repository, bound to organization and id). */
  create(connection: Connection, credentials: Record<string, unknown>): Promise<void>;
  find(organizationId: string, id: string): Promise<Connection | undefined>;
  list(organizationId: string): Promise<Connection[]>;
  credentialsOf(connection: Connection): Promise<Record<string, unknown>>;
  update(connection: Connection, credentials?: Record<string, unknown>): Promise<void>;
  delete(organizationId: string, id: string): Promise<boolean>;
}

export const CONNECTION_REPOSITORY = Symbol('ConnectionRepository');
