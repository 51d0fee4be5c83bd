/**
 * An organization's connections from memory: every action run resolves its connector from
 * this list, so it is answered by a per-process cache, dropped in every process when a
 * connection of the organization is created, changed (credentials rotated, verified) or
 * deleted (CacheSync, the channel the other per-process caches share; the TTL bounds a lost
 * message). Everything else (one connection, its sealed credentials) is read through.
 */
import type { Connection, ConnectionRepository } from '../domain/connection';
import type { CacheSync } from '../../../platform/caching/cache-sync';
import { ReadThroughCache } from '../../../platform/caching/read-through-cache';

export const CONNECTIONS_CACHE = 'connections';

export class CachedConnectionRepository implements ConnectionRepository {
  private readonly lists: ReadThroughCache<Connection[]>;

  constructor(
    private readonly inner: ConnectionRepository,
    private readonly sync: CacheSync,
    options: { ttlMs: number; maxEntries: number },
  ) {
    this.lists = new ReadThroughCache((organizationId) => inner.list(organizationId), options);
    sync.join(CONNECTIONS_CACHE, { changed: (organizationId) => this.lists.invalidate(organizationId), reset: () => this.lists.clear() });
  }

  /** A copy: callers may sort or filter it. */
  async list(organizationId: string): Promise<Connection[]> {
    return [...((await this.lists.get(organizationId)) ?? [])];
  }

  find(organizationId: string, id: string): Promise<Connection | undefined> {
    return this.inner.find(organizationId, id);
  }

  credentialsOf(connection: Connection): Promise<Record<string, unknown>> {
    return this.inner.credentialsOf(connection);
  }

  async create(connection: Connection, credentials: Record<string, unknown>): Promise<void> {
    await this.inner.create(connection, credentials);
    await this.sync.changed(CONNECTIONS_CACHE, connection.organizationId);
  }

  async update(connection: Connection, credentials?: Record<string, unknown>): Promise<void> {
    await this.inner.update(connection, credentials);
    await this.sync.changed(CONNECTIONS_CACHE, connection.organizationId);
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    const deleted = await this.inner.delete(organizationId, id);
    await this.sync.changed(CONNECTIONS_CACHE, organizationId);
    return deleted;
  }
}
