/**
 * The per-process lookup cache on its own: one read per key, TTL, an invalidation racing a
 * read, misses, bounds, and (fast-check) that after any interleaving of writes,
 * invalidations and reads, a read that starts after the last write's invalidation sees
 * that write.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { ReadThroughCache } from '../../src/platform/caching/read-through-cache';

class Source {
  readonly values = new Map<string, number>();
  reads = 0;
  /** When set, reads take their answer first, then wait for this. */
  gate: Promise<void> | undefined;
  read = async (key: string): Promise<number | undefined> => {
    this.reads += 1;
    const value = this.values.get(key);
    await this.gate;
    return value;
  };
}

describe('caching: read-through cache', () => {
  let now = 1_000_000;
  let source: Source;
  let cache: ReadThroughCache<number>;
  beforeEach(() => {
    now = 1_000_000;
    source = new Source();
    cache = new ReadThroughCache(source.read, { ttlMs: 60_000, maxEntries: 3, nowMs: () => now });
  });

  it('reads once, then answers from memory until the TTL passes', async () => {
    source.values.set('a', 1);
    assert.equal(await cache.get('a'), 1);
    assert.equal(await cache.get('a'), 1);
    assert.equal(source.reads, 1);
    source.values.set('a', 2);
    now += 59_999;
    assert.equal(await cache.get('a'), 1);
    now += 1;
    assert.equal(await cache.get('a'), 2);
    assert.equal(source.reads, 2);
  });

  it('concurrent misses share one read', async () => {
    source.values.set('a', 1);
    const answers = await Promise.all([cache.get('a'), cache.get('a'), cache.get('a')]);
    assert.deepEqual(answers, [1, 1, 1]);
    assert.equal(source.reads, 1);
  });

  it('an invalidation during a read: the (older) answer is returned but not kept', async () => {
    source.values.set('a', 1);
    let open!: () => void;
    source.gate = new Promise((resolve) => (open = resolve));
    const inFlight = cache.get('a');
    source.values.set('a', 2);
    cache.invalidate('a');
    open();
    assert.equal(await inFlight, 1);
    source.gate = undefined;
    assert.equal(await cache.get('a'), 2);
  });

  it('misses are not kept unless cacheMisses is set', async () => {
    assert.equal(await cache.get('x'), undefined);
    source.values.set('x', 5);
    assert.equal(await cache.get('x'), 5);
    const keeping = new ReadThroughCache(source.read, { ttlMs: 60_000, maxEntries: 3, cacheMisses: true, nowMs: () => now });
    assert.equal(await keeping.get('y'), undefined);
    source.values.set('y', 6);
    assert.equal(await keeping.get('y'), undefined);
    keeping.invalidate('y');
    assert.equal(await keeping.get('y'), 6);
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    for (const key of ['a', 'b', 'c', 'd']) source.values.set(key, 1);
    for (const key of ['a', 'b', 'c', 'd']) await cache.get(key);
    assert.equal(cache.size, 3);
    const reads = source.reads;
    await cache.get('a');
    assert.equal(source.reads, reads + 1);
  });

  it('invalidateWhere drops matching entries and any read in flight', async () => {
    source.values.set('a', 1);
    source.values.set('b', 2);
    await cache.get('a');
    await cache.get('b');
    cache.invalidateWhere((v) => v === 1);
    assert.equal(cache.size, 1);
  });

  it('property: a read started after a write and its invalidation sees the write', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('write' as const), key: fc.constantFrom('a', 'b'), value: fc.integer() }),
      fc.record({ kind: fc.constant('read' as const), key: fc.constantFrom('a', 'b'), delay: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const store = new Map<string, number>();
        const gates: Array<() => void> = [];
        const read = async (key: string) => {
          const value = store.get(key);
          await new Promise<void>((resolve) => gates.push(resolve));
          return value;
        };
        const c = new ReadThroughCache<number>(read, { ttlMs: 1e9, maxEntries: 10, cacheMisses: true });
        const pending: Promise<unknown>[] = [];
        for (const o of ops) {
          if (o.kind === 'write') {
            store.set(o.key, o.value);
            c.invalidate(o.key);
          } else {
            const p = c.get(o.key);
            pending.push(p);
            if (!o.delay) {
              gates.splice(0).forEach((g) => g());
              await p;
            }
          }
        }
        gates.splice(0).forEach((g) => g());
        await Promise.all(pending);
        for (const key of ['a', 'b']) {
          const reading = c.get(key);
          gates.splice(0).forEach((g) => g());
          assert.equal(await reading, store.get(key));
        }
      }),
      { numRuns: 200 },
    );
  });
});
