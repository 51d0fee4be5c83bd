/**
 * The run engine's rules without a database: a counterpart's Retry-After is honoured by the
 * queues' backoff; POST /runs/{id}/retry re-opens only a failed run, once, through the
 * feature that can replay it, and puts it back to `failed` when the source is gone.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DomainError, upstream } from '../../src/kernel/errors';
import { retryDelay } from '../../src/platform/queue/retry-policy';
import type { ActionRun, ActionRunRepository, ActionRunStatus } from '../../src/features/action-runs/domain/action-run';
import { RunRetries, type RunReplayer } from '../../src/features/action-runs/domain/run-retries';

function run(status: ActionRunStatus, action = 'notifications.interview_reminder'): ActionRun {
  const at = new Date('2026-11-25T10:00:00Z');
  return {
    id: 'run_1',
    organizationId: 'org_a',
    idempotencyKey: 'reminder-email-org_a-int_1-1',
    action,
    hook: 'interview.scheduled',
    step: 'email',
    connector: 'none',
    connectionId: null,
    livemode: true,
    status,
    attempts: [],
    reference: null,
    result: null,
    errorCode: status === 'failed' ? 'connection_missing' : null,
    errorMessage: null,
    createdAt: at,
    updatedAt: at,
    completedAt: null,
  };
}

/** One run in memory, with the repository's conditional updates. */
function memoryRuns(initial: ActionRun) {
  const state = { run: structuredClone(initial) };
  const repository: Pick<ActionRunRepository, 'find' | 'reopen' | 'restoreFailed'> = {
    async find(organizationId, id) {
      return state.run.organizationId === organizationId && state.run.id === id ? structuredClone(state.run) : undefined;
    },
    async reopen(organizationId, id) {
      if (state.run.organizationId !== organizationId || state.run.id !== id || state.run.status !== 'failed') return undefined;
      state.run.status = 'retrying';
      return structuredClone(state.run);
    },
    async restoreFailed(_organizationId, _id) {
      if (state.run.status === 'retrying') state.run.status = 'failed';
    },
  };
  return { state, repository: repository as ActionRunRepository };
}

const replayer = (answer: boolean, calls: string[]): RunReplayer => ({
  actions: ['notifications.interview_reminder'],
  async replay(r) {
    calls.push(r.id);
    return answer;
  },
});

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof DomainError ? `${error.kind}:${error.code}` : String(error);
  }
};

describe('action runs: retries and backoff', () => {
  it('a counterpart’s Retry-After is honoured (never sooner than the queue’s own backoff, at most a day)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 200_000 }), fc.integer({ min: 1, max: 60_000 }), (attempt, seconds, base) => {
        const delay = retryDelay(base, attempt, upstream('counterpart_rate_limited', 'HTTP 429', { retryAfterSeconds: seconds }));
        assert.equal(delay, Math.max(base * 2 ** (attempt - 1), Math.min(seconds, 86_400) * 1000));
      }),
      { numRuns: 200 },
    );
    assert.equal(retryDelay(500, 1, upstream('counterpart_unavailable', 'HTTP 503')), 500);
  });

  it('a failed run is re-opened once and replayed; a second call answers it as it stands', async () => {
    const { state, repository } = memoryRuns(run('failed'));
    const calls: string[] = [];
    const retries = new RunRetries(
      repository,
      () => [replayer(true, calls)],
      () => new Date(),
    );
    assert.equal((await retries.retry('org_a', 'run_1')).status, 'retrying');
    assert.equal((await retries.retry('org_a', 'run_1')).status, 'retrying');
    assert.deepEqual(calls, ['run_1']);
    assert.equal(state.run.status, 'retrying');
  });

  it('succeeded → 409 run_succeeded; another organization → 404; nothing to replay it → 409 run_not_retryable', async () => {
    const calls: string[] = [];
    const done = memoryRuns(run('succeeded'));
    assert.equal(
      await codeOf(
        new RunRetries(
          done.repository,
          () => [replayer(true, calls)],
          () => new Date(),
        ).retry('org_a', 'run_1'),
      ),
      'conflict:run_succeeded',
    );
    assert.equal(
      await codeOf(
        new RunRetries(
          done.repository,
          () => [replayer(true, calls)],
          () => new Date(),
        ).retry('org_b', 'run_1'),
      ),
      'not_found:resource_missing',
    );
    const other = memoryRuns(run('failed', 'hris.employee_sync'));
    assert.equal(
      await codeOf(
        new RunRetries(
          other.repository,
          () => [replayer(true, calls)],
          () => new Date(),
        ).retry('org_a', 'run_1'),
      ),
      'conflict:run_not_retryable',
    );
    assert.equal(other.state.run.status, 'failed');
    assert.deepEqual(calls, []);
  });

  it('a source that is gone (or a replay that throws) puts the run back to failed', async () => {
    const gone = memoryRuns(run('failed'));
    assert.equal(
      await codeOf(
        new RunRetries(
          gone.repository,
          () => [replayer(false, [])],
          () => new Date(),
        ).retry('org_a', 'run_1'),
      ),
      'conflict:run_not_retryable',
    );
    assert.equal(gone.state.run.status, 'failed');
    const broken = memoryRuns(run('failed'));
    const throwing: RunReplayer = { actions: ['notifications.interview_reminder'], replay: () => Promise.reject(new Error('redis down')) };
    assert.match(
      await codeOf(
        new RunRetries(
          broken.repository,
          () => [throwing],
          () => new Date(),
        ).retry('org_a', 'run_1'),
      ),
      /redis down/,
    );
    assert.equal(broken.state.run.status, 'failed');
  });
});
