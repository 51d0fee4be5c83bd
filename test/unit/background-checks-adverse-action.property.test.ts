/**
 * FCRA adverse action as a state machine, property-tested: whatever the order of commands and
 * however the clock moves, a final notice never precedes the pre-adverse notice plus at least
 * five business days; final and cancelled are terminal and exclusive; only a complete
 * `consider` report starts the process.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  cancelAdverseAction,
  NO_ADVERSE_ACTION,
  sendFinalAdverseAction,
  startPreAdverseAction,
  type AdverseAction,
} from '../../src/features/background-checks/domain/adverse-action';
import { addBusinessDays, businessDaysBetween } from '../../src/features/background-checks/domain/business-days';
import { isDomainError } from '../../src/kernel/errors';

const HOUR = 3_600_000;
const consider = { status: 'complete', result: 'consider' as const };
const instant = fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 0, 1) }).map((t) => new Date(t));

type Command = { kind: 'start'; days: number } | { kind: 'final' } | { kind: 'cancel' };
const command: fc.Arbitrary<{ command: Command; advanceHours: number }> = fc.record({
  command: fc.oneof(
    fc.record({ kind: fc.constant('start' as const), days: fc.integer({ min: 0, max: 35 }) }),
    fc.constant({ kind: 'final' as const }),
    fc.constant({ kind: 'cancel' as const }),
  ),
  advanceHours: fc.integer({ min: 0, max: 24 * 10 }),
});

describe('background checks: FCRA adverse action state machine', () => {
  it('business days: n business days later is never fewer than n weekdays, and never lands on a weekend', () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: 1, max: 30 }), (from, n) => {
        const until = addBusinessDays(from, n);
        assert.equal(businessDaysBetween(from, until), n);
        assert.ok(until.getUTCDay() !== 0 && until.getUTCDay() !== 6);
        assert.ok(until.getTime() - from.getTime() >= n * 24 * HOUR);
      }),
      { numRuns: 200 },
    );
  });

  it('any sequence of commands keeps the invariants', () => {
    fc.assert(
      fc.property(instant, fc.array(command, { maxLength: 12 }), (start, steps) => {
        let state: AdverseAction = NO_ADVERSE_ACTION;
        let now = start;
        for (const { command: c, advanceHours } of steps) {
          now = new Date(now.getTime() + advanceHours * HOUR);
          const before = state;
          try {
            if (c.kind === 'start') state = startPreAdverseAction(state, consider, now, c.days);
            else if (c.kind === 'final') state = sendFinalAdverseAction(state, now);
            else state = cancelAdverseAction(state, now);
          } catch (error) {
            assert.ok(isDomainError(error), 'a refused step is a stable domain error');
            assert.ok(['invalid', 'conflict'].includes(error.kind));
            assert.deepEqual(state, before, 'a refused step changes nothing');
            continue;
          }
          // Legal transitions only.
          const legal: Record<string, string[]> = { none: ['pre_notice_sent'], pre_notice_sent: ['final_notice_sent', 'cancelled'] };
          assert.ok(legal[before.stage]?.includes(state.stage), `${before.stage} -> ${state.stage}`);
          if (state.stage === 'pre_notice_sent') assert.ok(c.kind === 'start' && c.days >= 5 && c.days <= 30);
          if (state.stage === 'final_notice_sent') {
            assert.ok(state.finalNoticeAt!.getTime() >= state.waitingUntil!.getTime());
            assert.ok(businessDaysBetween(state.preNoticeAt!, state.finalNoticeAt!) >= 5, 'at least five business days to dispute');
            assert.equal(state.cancelledAt, null);
          }
          if (state.stage === 'cancelled') assert.equal(state.finalNoticeAt, null);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('only a complete report whose result is consider can start it', () => {
    const now = new Date('2026-11-27T10:00:00Z');
    for (const report of [
      { status: 'complete', result: 'clear' as const },
      { status: 'pending', result: null },
      { status: 'suspended', result: null },
      { status: 'dispute', result: 'consider' as const },
    ])
      assert.throws(
        () => startPreAdverseAction(NO_ADVERSE_ACTION, report, now),
        (e: unknown) => isDomainError(e) && e.code === 'report_not_actionable',
      );
    // A Friday notice waits over the weekend: five business days is the next Friday.
    const started = startPreAdverseAction(NO_ADVERSE_ACTION, consider, now);
    assert.equal(started.waitingUntil!.toISOString(), '2026-12-04T10:00:00.000Z');
  });
});
