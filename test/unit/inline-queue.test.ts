import { strict as assert } from 'node:assert';
import { UnrecoverableJobError, type JobContext, type JobProcessor, type QueueDefinition } from '../../src/kernel/job-queue';
import { upstream, invalid } from '../../src/kernel/errors';
import { createLogger } from '../../src/platform/logging/pino-logger';
import { InlineJobQueue } from '../../src/platform/queue/inline-queue';

const definitions = new Map<string, QueueDefinition>([['work', { name: 'work', concurrency: 1, attempts: 3, backoffMs: 5 }]]);
const logger = createLogger({ level: 'silent' });

function recorder(behaviour: (job: JobContext) => void | Promise<void>) {
  const seen: JobContext[] = [];
  const processor: JobProcessor = {
    queue: 'work',
    async process(job) {
      seen.push({ ...job });
      await behaviour(job);
    },
  };
  return { seen, processor };
}

describe('in-process job queue', () => {
  it('runs a job once per job id', async () => {
    const queue = new InlineJobQueue(definitions, logger);
    const { seen, processor } = recorder(() => undefined);
    queue.startWorkers([processor]);
    await queue.add('work', 'a', { n: 1 }, { jobId: 'same' });
    await queue.add('work', 'a', { n: 2 }, { jobId: 'same' });
    await queue.drain();
    assert.deepEqual(
      seen.map((j) => j.data),
      [{ n: 1 }],
    );
    await queue.close();
  });

  it('retries upstream failures with backoff, up to the attempts', async () => {
    const queue = new InlineJobQueue(definitions, logger);
    const { seen, processor } = recorder((job) => {
      if (job.attempt < 3) throw upstream('provider_unavailable', 'down');
    });
    queue.startWorkers([processor]);
    await queue.add('work', 'a', {});
    await queue.drain(1000);
    assert.deepEqual(
      seen.map((j) => j.attempt),
      [1, 2, 3],
    );
    await queue.close();
  });

  it('does not retry input errors or unrecoverable ones', async () => {
    const queue = new InlineJobQueue(definitions, logger);
    const { seen, processor } = recorder((job) => {
      throw (job.data as { kind: string }).kind === 'input' ? invalid('bad', 'bad') : new UnrecoverableJobError('no');
    });
    queue.startWorkers([processor]);
    await queue.add('work', 'a', { kind: 'input' });
    await queue.add('work', 'a', { kind: 'final' });
    await queue.drain(1000);
    assert.equal(seen.length, 2);
    await queue.close();
  });

  it('delays jobs and can remove or inspect a pending one', async () => {
    const queue = new InlineJobQueue(definitions, logger);
    const { seen, processor } = recorder(() => undefined);
    queue.startWorkers([processor]);
    await queue.add('work', 'later', { x: 1 }, { jobId: 'j1', delayMs: 60_000 });
    const pending = await queue.pending('work', 'j1');
    assert.ok(pending && pending.runAt.getTime() > Date.now() + 50_000);
    assert.equal(await queue.remove('work', 'j1'), true);
    assert.equal(await queue.pending('work', 'j1'), undefined);
    assert.equal(await queue.remove('work', 'j1'), false);
    await queue.drain();
    assert.equal(seen.length, 0);
    await queue.close();
  });
});
