/**
 * The delivery engine (src/kernel/delivery) that webhook deliveries and action runs share:
 * its state machine, its backoff and how an attempt settles, checked over random paths.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { DomainError, upstream } from '../../src/kernel/errors';
import { JITTER, nextAttemptAt, retryDelayMs } from '../../src/kernel/delivery/backoff';
import { initialDelivery, isFinal, transition, type DeliveryEvent, type DeliveryState, type DeliveryStatus } from '../../src/kernel/delivery/delivery-state';
import { classifyFailure } from '../../src/kernel/delivery/failure';
import { settleAttempt } from '../../src/kernel/delivery/settle-attempt';

const STATUSES: DeliveryStatus[] = ['pending', 'running', 'retrying', 'succeeded', 'failed', 'exhausted', 'canceled'];

const eventArb = (withRedeliver: boolean): fc.Arbitrary<DeliveryEvent> =>
  fc.oneof(
    fc.constant<DeliveryEvent>({ type: 'begin' }),
    fc.constant<DeliveryEvent>({ type: 'acknowledged' }),
    fc.boolean().map<DeliveryEvent>((exhausted) => ({ type: 'transient', exhausted })),
    fc.constant<DeliveryEvent>({ type: 'permanent' }),
    fc.constant<DeliveryEvent>({ type: 'cancel' }),
    fc.constant<DeliveryEvent>({ type: 'reopen' }),
    ...(withRedeliver ? [fc.constant<DeliveryEvent>({ type: 'redeliver' })] : []),
  );

const stateArb: fc.Arbitrary<DeliveryState> = fc.record({
  status: fc.constantFrom(...STATUSES),
  attempts: fc.nat({ max: 50 }),
  window: fc.nat({ max: 5 }),
});

const schedule = fc
  .record({ baseMs: fc.integer({ min: 1, max: 60_000 }), factor: fc.integer({ min: 1, max: 2_000 }), windows: fc.integer({ min: 1, max: 100 }) })
  .map(({ baseMs, factor, windows }) => ({ baseMs, maxDelayMs: baseMs * factor, windowMs: baseMs * factor * windows }));

describe('delivery engine', () => {
  it('nothing leaves succeeded within a window: only an explicit redeliver opens the next one', () => {
    fc.assert(
      fc.property(stateArb, fc.array(eventArb(true), { maxLength: 40 }), (start, events) => {
        let state = start;
        for (const event of events) {
          const next = transition(state, event) ?? state;
          if (state.status === 'succeeded' && next.status !== 'succeeded') {
            assert.equal(event.type, 'redeliver');
            assert.equal(next.window, state.window + 1);
          }
          state = next;
        }
      }),
    );
  });

  it('without redeliver, succeeded is absorbing', () => {
    fc.assert(
      fc.property(fc.array(eventArb(false), { maxLength: 40 }), (events) => {
        let seenSuccess = false;
        let state = initialDelivery();
        for (const event of events) {
          state = transition(state, event) ?? state;
          if (state.status === 'succeeded') seenSuccess = true;
          else assert.equal(seenSuccess, false, `left succeeded by ${event.type}`);
        }
      }),
    );
  });

  it('attempts and windows never go down; attempts count exactly the begun attempts', () => {
    fc.assert(
      fc.property(stateArb, fc.array(eventArb(true), { maxLength: 60 }), (start, events) => {
        let state = start;
        let begun = 0;
        for (const event of events) {
          const next = transition(state, event);
          if (next) {
            assert.ok(next.attempts >= state.attempts && next.window >= state.window);
            if (event.type === 'begin') {
              begun += 1;
              assert.equal(next.attempts, state.attempts + 1);
              assert.equal(next.status, 'running');
            } else assert.equal(next.attempts, state.attempts);
            state = next;
          }
        }
        assert.equal(state.attempts, start.attempts + begun);
      }),
    );
  });

  it('an outcome is only ever recorded for an attempt under way, and a final delivery is never begun', () => {
    fc.assert(
      fc.property(stateArb, (state) => {
        for (const event of [{ type: 'acknowledged' }, { type: 'permanent' }, { type: 'transient', exhausted: false }] as DeliveryEvent[]) {
          assert.equal(transition(state, event) !== undefined, state.status === 'running');
        }
        assert.equal(transition(state, { type: 'begin' }) === undefined, isFinal(state.status));
      }),
    );
  });

  it('backoff: each delay within the jitter of the capped doubling, every retry inside the window and after now', () => {
    fc.assert(
      fc.property(
        schedule,
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.nat(),
        fc.option(fc.nat({ max: 10 ** 7 }), { nil: undefined }),
        (s, attempt, r, elapsedSeed, retryAfter) => {
          const delay = retryDelayMs(s, attempt, () => r);
          assert.ok(delay <= Math.ceil(s.maxDelayMs * (1 + JITTER)) && delay >= Math.floor(Math.min(s.baseMs, s.maxDelayMs) * (1 - JITTER)));
          const elapsed = elapsedSeed % (s.windowMs + s.baseMs);
          const next = nextAttemptAt(s, attempt, new Date(0), new Date(elapsed), () => r, retryAfter);
          if (elapsed >= s.windowMs) assert.equal(next, undefined);
          else {
            assert.ok(next && next.getTime() >= elapsed && next.getTime() <= s.windowMs);
            if (retryAfter !== undefined) assert.ok(next.getTime() >= Math.min(elapsed + retryAfter * 1000, s.windowMs));
          }
        },
      ),
    );
  });

  it('a counterpart failing transiently forever ends exhausted after a bounded number of attempts', () => {
    fc.assert(
      fc.property(schedule, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (s, r) => {
        const verdict = { transient: true, code: 'upstream_unavailable', message: 'down' };
        let now = 0;
        let attempt = 1;
        // Delays are whole milliseconds: the shortest plateau delay is the rounded lower jitter bound (3 ms × 0.8 → 2 ms).
        const shortestPlateau = Math.max(1, Math.round(s.maxDelayMs * (1 - JITTER)));
        const bound = Math.ceil(Math.log2(s.maxDelayMs / s.baseMs)) + Math.ceil(s.windowMs / shortestPlateau) + 3;
        for (;;) {
          const settled = settleAttempt(
            { kind: 'failure', verdict },
            { attempt, now: new Date(now), schedule: { retry: s, windowStartedAt: new Date(0), random: () => r } },
          );
          if (settled.status === 'exhausted') break;
          assert.equal(settled.status, 'retrying');
          assert.ok(settled.nextAttemptAt!.getTime() >= now);
          // A zero delay (tiny base, jitter) still moves on: time and the attempt both advance.
          now = Math.max(settled.nextAttemptAt!.getTime(), now + 1);
          attempt += 1;
          assert.ok(attempt <= bound, `${attempt} attempts > ${bound}`);
        }
      }),
    );
  });

  it('settles acknowledged as succeeded, permanent as failed, transient without a schedule as retrying', () => {
    const now = new Date(0);
    assert.equal(settleAttempt({ kind: 'acknowledged' }, { attempt: 1, now }).status, 'succeeded');
    assert.equal(settleAttempt({ kind: 'failure', verdict: { transient: false, code: 'x', message: '' } }, { attempt: 1, now }).status, 'failed');
    assert.equal(settleAttempt({ kind: 'failure', verdict: { transient: true, code: 'x', message: '' } }, { attempt: 9, now }).status, 'retrying');
  });

  it('classifies our errors by kind and a host connector by its permanent flag and code', () => {
    assert.deepEqual(classifyFailure(upstream('smtp_unavailable', 'down', { retryAfterSeconds: 30 })), {
      transient: true,
      code: 'smtp_unavailable',
      message: 'down',
      retryAfterSeconds: 30,
    });
    assert.equal(classifyFailure(new DomainError('conflict', 'recipient_rejected', 'no')).transient, false);
    assert.deepEqual(classifyFailure({ permanent: true, code: 'bad_number', message: 'x' }), { transient: false, code: 'bad_number', message: 'x' });
    assert.equal(classifyFailure({ code: 'Not A Code' }).code, 'connector_error');
    assert.equal(classifyFailure(new Error('ECONNRESET')).transient, true);
    assert.equal(classifyFailure(undefined).transient, true);
  });
});
