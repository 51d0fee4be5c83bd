import { strict as assert } from 'node:assert';
import type { HookDispatch } from '../../src/features/hooks/domain/hook-dispatcher';
import { HookIntake, PAIRING_WINDOW_MS } from '../../src/features/hooks/domain/hook-intake';
import { testLogger } from '../helpers/log-capture';

function counting() {
  const calls: string[] = [];
  let now = 1_000_000;
  const intake = new HookIntake(
    async (hook, organizationId, payload): Promise<HookDispatch> => {
      calls.push(`${hook} ${organizationId} ${JSON.stringify(payload)}`);
      return { hook, handled: ['h'], skipped: [], failed: [], outcomes: [] };
    },
    testLogger(),
    () => now,
  );
  return { intake, calls, advance: (ms: number) => (now += ms) };
}

describe('hooks: one event through the bus and fireHook runs once', () => {
  it('pairs an emitted hook with the same hook fired (either order, keys in any order), sharing the dispatch', async () => {
    const { intake, calls } = counting();
    const first = await intake.fire('bus', 'interview.scheduled', 'org_1', { interview_id: 'i1', candidate: { name: 'Ada', email: 'a@x' } });
    const second = await intake.fire('call', 'interview.scheduled', 'org_1', { candidate: { email: 'a@x', name: 'Ada' }, interview_id: 'i1' });
    assert.equal(calls.length, 1);
    assert.equal(first, second);
    await intake.fire('call', 'offer.created', 'org_1', { offer_id: 'o1' });
    await intake.fire('bus', 'offer.created', 'org_1', { offer_id: 'o1' });
    assert.equal(calls.length, 2);
  });

  it('runs again for repeated firings through the same way, another organization or payload, or after the window', async () => {
    const { intake, calls, advance } = counting();
    await intake.fire('call', 'interview.scheduled', 'org_1', { interview_id: 'i1' });
    await intake.fire('call', 'interview.scheduled', 'org_1', { interview_id: 'i1' });
    await intake.fire('bus', 'interview.scheduled', 'org_2', { interview_id: 'i1' });
    await intake.fire('bus', 'interview.scheduled', 'org_1', { interview_id: 'i2' });
    assert.equal(calls.length, 4);
    // A pair shares one dispatch only once: a third firing runs again.
    await intake.fire('bus', 'interview.scheduled', 'org_1', { interview_id: 'i1' });
    await intake.fire('call', 'interview.scheduled', 'org_1', { interview_id: 'i1' });
    assert.equal(calls.length, 5);
    advance(PAIRING_WINDOW_MS + 1);
    await intake.fire('bus', 'candidate.hired', 'org_1', { candidate_id: 'c1' });
    advance(PAIRING_WINDOW_MS + 1);
    await intake.fire('call', 'candidate.hired', 'org_1', { candidate_id: 'c1' });
    assert.equal(calls.length, 7);
  });
});
