/**
 * Group commit (events and audit events of one organization): appends that arrive while a
 * write is under way share the next write, in order; each caller gets its own result; a
 * failing batch is retried item by item so only the bad item's caller fails; keys do not mix.
 */
import { strict as assert } from 'node:assert';
import { GroupCommit } from '../../src/kernel/group-commit';

describe('group commit', () => {
  it('batches what arrives during a write, in order, and answers each caller its own result', async () => {
    const writes: [string, number[]][] = [];
    const group = new GroupCommit<number, string>(async (key, items) => {
      writes.push([key, items]);
      await new Promise((r) => setTimeout(r, 5));
      return items.map((i) => `${key}:${i}`);
    });
    const results = await Promise.all([1, 2, 3, 4].map((i) => group.submit('org_a', i)).concat(group.submit('org_b', 9)));
    assert.deepEqual(results, ['org_a:1', 'org_a:2', 'org_a:3', 'org_a:4', 'org_b:9']);
    // The first write starts alone; the three that queued behind it share one write.
    assert.deepEqual(writes, [
      ['org_a', [1]],
      ['org_b', [9]],
      ['org_a', [2, 3, 4]],
    ]);
  });

  it('fails only the caller whose item fails', async () => {
    const group = new GroupCommit<number, number>(async (_key, items) => {
      await new Promise((r) => setTimeout(r, 1));
      if (items.includes(3)) throw new Error('bad item');
      return items;
    });
    const settled = await Promise.allSettled([1, 2, 3, 4].map((i) => group.submit('k', i)));
    assert.deepEqual(
      settled.map((s) => s.status),
      ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
    );
    assert.equal(await group.submit('k', 5), 5);
  });
});
