/** A keyed mutex for one process: callers of the same key run one after another, in order. */
import type { RefreshLock } from '../domain/refresh-lock';

export class InProcessLock implements RefreshLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const turn = previous.then(work, work);
    const tail = turn.catch(() => undefined);
    this.tails.set(key, tail);
    try {
      return await turn;
    } finally {
      // The last in line cleans up, so the map holds only keys somebody is waiting on.
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
