/**
 * One refresh of a candidate's authorization at a time, across every API and worker
 * process: whoever holds the lock refreshes, the others wait and then find the new tokens.
 * Implementations: a PostgreSQL advisory lock (src/features/profiles/storage/advisory-refresh-lock.ts) and,
 * in embedded mode (one process), an in-process lock.
 */
export interface RefreshLock {
  /** Runs `work` while no other holder of `key` runs; releases the lock however `work` ends. */
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export const REFRESH_LOCK = Symbol('RefreshLock');
