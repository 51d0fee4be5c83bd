/**
 * The pure pieces of the hardening: JSON depth measured without recursion (an invariant
 * checked against JSON.parse on generated documents), outages told apart from bugs, and the
 * retry schedule after an outage.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { isAvailabilityError } from '../../src/kernel/availability';
import { exceedsJsonDepth } from '../../src/platform/http/json-depth';
import { UnrecoverableJobError, type JobContext, type QueueDefinition } from '../../src/kernel/job-queue';
import { createLogger } from '../../src/platform/logging/pino-logger';
import { InlineJobQueue } from '../../src/platform/queue/inline-queue';
import { isOwnOutage, retryDelay } from '../../src/platform/queue/retry-policy';
import { upstream } from '../../src/kernel/errors';

/** Nesting depth of a parsed value, the reference the byte scan must agree with. */
function depthOf(value: unknown): number {
  if (Array.isArray(value)) return 1 + Math.max(0, ...value.map(depthOf));
  if (value && typeof value === 'object') return 1 + Math.max(0, ...Object.values(value).map(depthOf));
  return 0;
}

describe('hardening: JSON depth, availability errors, outage retries', () => {
  it('exceedsJsonDepth agrees with the depth of the parsed document, brackets inside strings included', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ maxDepth: 8 }, fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a') }), fc.integer(), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 3 }),
      object: fc.dictionary(fc.string({ unit: fc.constantFrom('[', '{', '"', '\\', 'k') }), tie('value'), { maxKeys: 3 }),
    })).value;
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 6 }), (value, max) => {
        const text = Buffer.from(JSON.stringify(value));
        assert.equal(exceedsJsonDepth(text, max), depthOf(value) > max);
      }),
      { numRuns: 300 },
    );
  });

  it('30,000 nested arrays exceed 32 levels; 32 do not', () => {
    assert.equal(exceedsJsonDepth(Buffer.from('['.repeat(30_000) + ']'.repeat(30_000))), true);
    assert.equal(exceedsJsonDepth(Buffer.from('['.repeat(32) + ']'.repeat(32))), false);
    assert.equal(exceedsJsonDepth(Buffer.from('['.repeat(33) + ']'.repeat(33))), true);
  });

  it('tells an outage (database or Redis unreachable) from a bug', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const outages: unknown[] = [
      refused,
      new AggregateError([refused], ''),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }),
      new Error('Connection terminated unexpectedly'),
      // As knex reports a statement whose connection died (the statement first).
      new Error('update "hi_idempotency_keys" set "response_status" = $1 where "key" = $2 - Connection terminated unexpectedly'),
      new Error('select 1 - Client was closed and is not queryable'),
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
      new Error('Command timed out'),
      Object.assign(new Error('wrapped'), { cause: refused }),
    ];
    for (const error of outages) assert.equal(isAvailabilityError(error), true, String((error as Error).message));
    const bugs: unknown[] = [
      new TypeError("Cannot read properties of undefined (reading 'id')"),
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      Object.assign(new Error('syntax error at or near "selec"'), { code: '42601' }),
      undefined,
      'a string',
    ];
    for (const error of bugs) assert.equal(isAvailabilityError(error), false, String(error));
  });

  it("after an outage a job waits 5, 10, 20, 40 s (capped at a minute), never less than its queue's own backoff", () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((attempt) => retryDelay(500, attempt, outage)),
      [5_000, 10_000, 20_000, 40_000, 60_000],
    );
    assert.deepEqual(
      [1, 2, 3].map((attempt) => retryDelay(500, attempt, new Error('upstream 503'))),
      [500, 1_000, 2_000],
    );
    assert.equal(retryDelay(30_000, 2, outage), 60_000);
  });

  it("only our own outage is retried without spending an attempt; a counterpart's failure, even a refused connection it reports, spends one", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    assert.equal(isOwnOutage(refused), true);
    assert.equal(isOwnOutage(new Error('select 1 - Connection terminated unexpectedly')), true);
    assert.equal(isOwnOutage(upstream('provisioner_unavailable', 'connect ECONNREFUSED (vendor)', { cause: refused })), false);
    assert.equal(isOwnOutage(new UnrecoverableJobError('Connection terminated')), false);
    assert.equal(isOwnOutage(new Error('upstream 503')), false);
  });

  it('the in-process queue re-enqueues for the sweep: a lost or long-finished job runs again, a waiting one is left alone', async () => {
    const definitions = new Map<string, QueueDefinition>([['work', { name: 'work', concurrency: 1, attempts: 1, backoffMs: 5 }]]);
    const queue = new InlineJobQueue(definitions, createLogger({ level: 'silent' }));
    const runs: string[] = [];
    queue.startWorkers([{ queue: 'work', process: async (job: JobContext) => void runs.push(job.id) }]);
    try {
      assert.equal(await queue.requeue('work', 'w', {}, 'job-1', new Date()), 'added', 'a job the queue never had');
      await queue.drain();
      assert.deepEqual(runs, ['job-1']);
      assert.equal(await queue.requeue('work', 'w', {}, 'job-1', new Date(Date.now() - 60_000)), 'pending', 'it finished just now');
      assert.equal(await queue.requeue('work', 'w', {}, 'job-1', new Date(Date.now() + 1)), 'added', 'it finished before the bound, yet the effect is missing');
      await queue.drain();
      assert.deepEqual(runs, ['job-1', 'job-1']);
      await queue.add('work', 'w', {}, { jobId: 'job-2', delayMs: 60_000 });
      assert.equal(await queue.requeue('work', 'w', {}, 'job-2', new Date(Date.now() + 1)), 'pending', 'a waiting job is left alone');
    } finally {
      await queue.close();
    }
  });
});
