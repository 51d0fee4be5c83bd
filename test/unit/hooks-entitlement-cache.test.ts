/** The entitlement cache on its own: O(1) answers, TTL, invalidation racing a read, bounds. */
import { strict as assert } from 'node:assert';
import { EntitlementCache } from '../../src/features/licensing/domain/entitlement-cache';
import type { EntitlementSource } from '../../src/features/licensing/domain/entitlement-source';

class FakeSource implements EntitlementSource {
  readonly active = new Set<string>();
  reads = 0;
  /** When set, reads wait for this before answering. */
  gate: Promise<void> | undefined;
  async isActive(organizationId: string, actionKey: string): Promise<boolean> {
    this.reads += 1;
    const answer = this.active.has(`${organizationId} ${actionKey}`);
    await this.gate;
    return answer;
  }
}

describe('hooks: entitlement cache', () => {
  let now = 1_000_000;
  let source: FakeSource;
  let cache: EntitlementCache;
  beforeEach(() => {
    now = 1_000_000;
    source = new FakeSource();
    cache = new EntitlementCache(source, { ttlMs: 60_000, maxEntries: 1000, nowMs: () => now });
  });

  it('reads the source once, then answers from memory (true and false alike)', async () => {
    source.active.add('org_a x.y');
    assert.equal(cache.peek('org_a', 'x.y'), undefined);
    assert.equal(await cache.isActive('org_a', 'x.y'), true);
    assert.equal(await cache.isActive('org_b', 'x.y'), false);
    assert.equal(source.reads, 2);
    for (let i = 0; i < 100; i++) {
      assert.equal(cache.peek('org_a', 'x.y'), true);
      assert.equal(cache.peek('org_b', 'x.y'), false);
    }
    assert.equal(await cache.isActive('org_a', 'x.y'), true);
    assert.equal(source.reads, 2);
  });

  it('forgets an answer after the TTL (a lost invalidation is stale at most that long)', async () => {
    assert.equal(await cache.isActive('org_a', 'x.y'), false);
    source.active.add('org_a x.y');
    now += 59_999;
    assert.equal(cache.peek('org_a', 'x.y'), false);
    now += 1;
    assert.equal(cache.peek('org_a', 'x.y'), undefined);
    assert.equal(await cache.isActive('org_a', 'x.y'), true);
  });

  it('invalidate drops one answer at once and leaves the others', async () => {
    await cache.isActive('org_a', 'x.y');
    await cache.isActive('org_a', 'x.z');
    source.active.add('org_a x.y');
    cache.invalidate('org_a', 'x.y');
    assert.equal(cache.peek('org_a', 'x.y'), undefined);
    assert.equal(cache.peek('org_a', 'x.z'), false);
    assert.equal(await cache.isActive('org_a', 'x.y'), true);
  });

  it('a read in flight when its entry is invalidated is not cached (it may predate the change)', async () => {
    let release!: () => void;
    source.gate = new Promise((resolve) => (release = resolve));
    const pending = cache.isActive('org_a', 'x.y'); // reads "false" now, answers later
    source.active.add('org_a x.y');
    cache.invalidate('org_a', 'x.y'); // the change lands while the read is in flight
    release();
    assert.equal(await pending, false);
    assert.equal(cache.peek('org_a', 'x.y'), undefined, 'the stale answer was not stored');
    source.gate = undefined;
    assert.equal(await cache.isActive('org_a', 'x.y'), true);
  });

  it('concurrent misses of one key share one read; clear() drops everything', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => cache.isActive('org_a', 'x.y')));
    assert.deepEqual(new Set(answers), new Set([false]));
    assert.equal(source.reads, 1);
    await cache.isActive('org_b', 'x.y');
    assert.equal(cache.entryCount, 2);
    cache.clear();
    assert.equal(cache.entryCount, 0);
    assert.equal(cache.peek('org_a', 'x.y'), undefined);
  });

  it('holds at most maxEntries answers, dropping the oldest organization first', async () => {
    const small = new EntitlementCache(source, { ttlMs: 60_000, maxEntries: 3, nowMs: () => now });
    await small.isActive('org_1', 'a.b');
    await small.isActive('org_2', 'a.b');
    await small.isActive('org_3', 'a.b');
    await small.isActive('org_4', 'a.b');
    assert.equal(small.entryCount, 3);
    assert.equal(small.peek('org_1', 'a.b'), undefined);
    assert.equal(small.peek('org_4', 'a.b'), false);
  });

  it('a failing read is not cached and is retried next time', async () => {
    let fail = true;
    const flaky = new EntitlementCache(
      {
        isActive: async () => {
          if (fail) throw new Error('db down');
          return true;
        },
      },
      { ttlMs: 1000, maxEntries: 10 },
    );
    await assert.rejects(flaky.isActive('org_a', 'x.y'), /db down/);
    fail = false;
    assert.equal(await flaky.isActive('org_a', 'x.y'), true);
  });

  it("keeps an organization's refusal reason until any of its answers is invalidated; a read racing the invalidation is not kept", async () => {
    let reads = 0;
    let reason: string | undefined = undefined;
    const load = async () => {
      reads += 1;
      return reason;
    };
    assert.equal(await cache.refusalReason('org_a', load), undefined);
    reason = 'payment_required';
    assert.equal(await cache.refusalReason('org_a', load), undefined, 'cached: no second read');
    assert.equal(reads, 1);
    // The standing changed: billing invalidates every action of the organization.
    cache.invalidate('org_a', 'x.y');
    assert.equal(await cache.refusalReason('org_a', load), 'payment_required');
    assert.equal(reads, 2);
    // A read in flight when the standing changes is answered but not kept.
    let release!: () => void;
    const slow = () =>
      new Promise<string | undefined>((resolve) => {
        release = () => resolve('payment_required');
      });
    cache.invalidate('org_a', 'x.y');
    const racing = cache.refusalReason('org_a', slow);
    cache.invalidate('org_a', 'x.y');
    release();
    assert.equal(await racing, 'payment_required');
    reason = undefined;
    assert.equal(await cache.refusalReason('org_a', load), undefined);
    now += 60_000;
    reason = 'payment_required';
    assert.equal(await cache.refusalReason('org_a', load), 'payment_required', 'expired after the TTL');
  });
});
