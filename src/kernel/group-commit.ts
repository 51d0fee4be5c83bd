/**
 * Group commit for an append-only chain: appends to one key that arrive while a write for
 * that key is under way are written together by the next write (one lock, one statement,
 * one commit), instead of each queueing on the chain's row lock for its own round trips.
 * Every caller still gets its own result only once its item is committed. A batch that
 * fails is retried item by item, so one bad item fails only its own caller.
 */
export class GroupCommit<I, O> {
  private readonly pending = new Map<string, { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[]>();
  private readonly writing = new Set<string>();

  constructor(
    private readonly write: (key: string, items: I[]) => Promise<O[]>,
    private readonly maxBatch = 100,
  ) {}

  submit(key: string, item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const queue = this.pending.get(key) ?? [];
      queue.push({ item, resolve, reject });
      this.pending.set(key, queue);
      if (!this.writing.has(key)) void this.drain(key);
    });
  }

  private async drain(key: string): Promise<void> {
    this.writing.add(key);
    try {
      for (let queue = this.pending.get(key); queue && queue.length > 0; queue = this.pending.get(key)) {
        const batch = queue.splice(0, this.maxBatch);
        if (queue.length === 0) this.pending.delete(key);
        try {
          const results = await this.write(
            key,
            batch.map((b) => b.item),
          );
          batch.forEach((b, i) => b.resolve(results[i]!));
        } catch (error) {
          if (batch.length === 1) batch[0]!.reject(error);
          else
            for (const b of batch)
              await this.write(key, [b.item]).then(
                ([result]) => b.resolve(result!),
                (e: unknown) => b.reject(e),
              );
        }
      }
    } finally {
      this.writing.delete(key);
    }
  }
}
