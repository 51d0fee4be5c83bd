/**
 * The gated dispatcher without I/O: a handler runs only where licensed, skips are
 * reported with their reason and counted, refused payloads are skips (never crashes),
 * unexpected failures are reported, and the decorator declares handlers.
 */
import { MODULES } from '../../src/plugin';
import 'reflect-metadata';
import { strict as assert } from 'node:assert';
import { container as root } from 'tsyringe';
import { EntitlementCache } from '../../src/features/licensing/domain/entitlement-cache';
import { HookDispatcher, LICENSE_INACTIVE } from '../../src/features/hooks/domain/hook-dispatcher';
import { HookGate } from '../../src/features/hooks/domain/hook-gate';
import { declarationOf, HookHandlerFor, parsePayload, type GatedHookHandler } from '../../src/features/hooks/domain/hook-handler';
import { HookRegistry } from '../../src/features/hooks/domain/hook-registry';
import { interviewScheduled } from '../../src/features/hooks/domain/payloads';
import { upstream } from '../../src/kernel/errors';
import type { GateMetrics } from '../../src/kernel/metrics';
import { HOOK_HANDLERS } from '../../src/features/hooks/register';
import { loadManifest } from '../../src/platform/manifest/manifest';
import { PluginMetrics } from '../../src/platform/observability/metrics';

const silent = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() {
    return silent;
  },
};

class CountingMetrics implements GateMetrics {
  readonly checks: string[] = [];
  hits = 0;
  misses = 0;
  recordGateCheck(action: string, allowed: boolean) {
    this.checks.push(`${action} ${allowed ? 'allowed' : 'skipped'}`);
  }
  recordCacheHit(hit: boolean) {
    if (hit) this.hits += 1;
    else this.misses += 1;
  }
}

const calls: string[] = [];

@HookHandlerFor({ name: 'test-meeting', hook: 'interview.scheduled', action: 'video_meetings.create_meeting_link' })
class MeetingHandler implements GatedHookHandler {
  async handle(organizationId: string, payload: Record<string, unknown>) {
    const interview = parsePayload(interviewScheduled, payload);
    calls.push(`meeting ${organizationId} ${interview.interview_id}`);
    return { interview_id: interview.interview_id };
  }
}

@HookHandlerFor({ name: 'test-reminder', hook: 'interview.scheduled', action: 'notifications.interview_reminder' })
class ReminderHandler implements GatedHookHandler {
  async handle(organizationId: string) {
    calls.push(`reminder ${organizationId}`);
  }
}

@HookHandlerFor({ name: 'test-flaky', hook: 'candidate.hired', action: 'hris.employee_sync' })
class FlakyHandler implements GatedHookHandler {
  async handle(): Promise<void> {
    throw upstream('hris_unavailable', 'HRIS timed out');
  }
}

@HookHandlerFor({ name: 'test-broken', hook: 'candidate.hired', action: 'hris.employee_sync' })
class BrokenHandler implements GatedHookHandler {
  async handle(): Promise<void> {
    throw new TypeError('bug');
  }
}

const payload = { interview_id: 'int_1', candidate: { name: 'Ada', email: 'ada@example.com' }, starts_at: '2030-01-01T10:00:00Z' };

describe('hooks: gated dispatch', () => {
  let licensed: Set<string>;
  let metrics: CountingMetrics;
  let cache: EntitlementCache;
  let dispatcher: HookDispatcher;

  beforeEach(() => {
    calls.length = 0;
    licensed = new Set(['org_a video_meetings.create_meeting_link', 'org_a notifications.interview_reminder', 'org_a hris.employee_sync']);
    metrics = new CountingMetrics();
    cache = new EntitlementCache({ isActive: async (o, a) => licensed.has(`${o} ${a}`) }, { ttlMs: 60_000, maxEntries: 100 });
    const c = root.createChildContainer();
    const registry = new HookRegistry(
      [MeetingHandler, ReminderHandler, FlakyHandler, BrokenHandler].map((h) => ({ ...declarationOf(h), handler: () => c.resolve<GatedHookHandler>(h) })),
    );
    dispatcher = new HookDispatcher(registry, new HookGate(cache, metrics), silent);
  });

  it('runs every handler of the hook for a licensed organization, with their reports', async () => {
    const result = await dispatcher.fire('interview.scheduled', 'org_a', payload);
    assert.deepEqual(result.handled, ['test-meeting', 'test-reminder']);
    assert.deepEqual(result.skipped, []);
    assert.deepEqual(calls, ['meeting org_a int_1', 'reminder org_a']);
    assert.deepEqual(result.outcomes[0], {
      handler: 'test-meeting',
      action: 'video_meetings.create_meeting_link',
      status: 'ran',
      result: { interview_id: 'int_1' },
    });
  });

  it('skips (never throws) for an unlicensed organization, says why, and counts it', async () => {
    const result = await dispatcher.fire('interview.scheduled', 'org_b', payload);
    assert.deepEqual(result.handled, []);
    assert.deepEqual(result.skipped, ['test-meeting', 'test-reminder']);
    assert.ok(result.outcomes.every((o) => o.status === 'skipped' && o.reason === LICENSE_INACTIVE));
    assert.deepEqual(calls, []);
    assert.deepEqual(metrics.checks, ['video_meetings.create_meeting_link skipped', 'notifications.interview_reminder skipped']);
  });

  it('gates per action: one license, one handler', async () => {
    licensed.delete('org_a notifications.interview_reminder');
    const result = await dispatcher.fire('interview.scheduled', 'org_a', payload);
    assert.deepEqual(result.handled, ['test-meeting']);
    assert.deepEqual(result.skipped, ['test-reminder']);
  });

  it('answers later checks from the cache (hits counted), and follows an invalidation', async () => {
    await dispatcher.fire('interview.scheduled', 'org_a', payload);
    assert.equal(metrics.misses, 2);
    await dispatcher.fire('interview.scheduled', 'org_a', payload);
    assert.equal(metrics.hits, 2);
    licensed.delete('org_a video_meetings.create_meeting_link');
    assert.deepEqual((await dispatcher.fire('interview.scheduled', 'org_a', payload)).handled, ['test-meeting', 'test-reminder'], 'cached until told');
    cache.invalidate('org_a', 'video_meetings.create_meeting_link');
    assert.deepEqual((await dispatcher.fire('interview.scheduled', 'org_a', payload)).handled, ['test-reminder']);
  });

  it('a refused payload is a skip with the field named, and the next handler still runs', async () => {
    const result = await dispatcher.fire('interview.scheduled', 'org_a', { ...payload, starts_at: 'tomorrow' });
    assert.equal(result.outcomes[0]!.status, 'skipped');
    assert.match(result.outcomes[0]!.reason!, /^invalid_payload: starts_at: /);
    assert.deepEqual(result.handled, ['test-reminder']);
  });

  it('upstream and unexpected errors are reported as failed, not thrown', async () => {
    const result = await dispatcher.fire('candidate.hired', 'org_a', {});
    assert.deepEqual(result.failed, ['test-flaky', 'test-broken']);
    assert.equal(result.outcomes[0]!.reason, 'hris_unavailable: HRIS timed out');
    assert.equal(result.outcomes[1]!.reason, 'handler_error');
  });

  it('an entitlement read that fails leaves the handler unrun, reported as failed', async () => {
    const failing = new HookDispatcher(
      new HookRegistry([{ ...declarationOf(ReminderHandler), handler: () => new ReminderHandler() }]),
      new HookGate(
        new EntitlementCache(
          {
            isActive: async () => {
              throw new Error('db down');
            },
          },
          { ttlMs: 1000, maxEntries: 10 },
        ),
        metrics,
      ),
      silent,
    );
    const result = await failing.fire('interview.scheduled', 'org_a', payload);
    assert.deepEqual(result.failed, ['test-reminder']);
    assert.equal(result.outcomes[0]!.reason, 'entitlement_unavailable');
    assert.deepEqual(calls, []);
  });

  it('a refusal says payment_required when billing suspended the organization', async () => {
    const suspended = new HookDispatcher(
      new HookRegistry([{ ...declarationOf(ReminderHandler), handler: () => new ReminderHandler() }]),
      new HookGate(cache, metrics),
      silent,
      async (organizationId) => (organizationId === 'org_b' ? 'payment_required' : undefined),
    );
    assert.equal((await suspended.fire('interview.scheduled', 'org_b', payload)).outcomes[0]!.reason, 'payment_required');
    assert.equal((await suspended.fire('interview.scheduled', 'org_c', payload)).outcomes[0]!.reason, LICENSE_INACTIVE);
    assert.deepEqual(calls, []);
  });

  it('a hook without handlers runs nothing', async () => {
    assert.deepEqual(await dispatcher.fire('nothing.here', 'org_a', {}), { hook: 'nothing.here', handled: [], skipped: [], failed: [], outcomes: [] });
  });

  it('the gate reports through the Prometheus metrics (allowed/skipped per action, cache hit/miss)', async () => {
    const prom = new PluginMetrics({ defaultMetrics: false });
    const gate = new HookGate(cache, prom);
    assert.equal(await gate.allows('org_a', 'hris.employee_sync'), true);
    const miss = gate.allows('org_b', 'hris.employee_sync');
    assert.equal(miss instanceof Promise, true, 'a miss reads the source');
    assert.equal(await miss, false);
    assert.equal(gate.allows('org_b', 'hris.employee_sync'), false, 'a hit answers synchronously');
    const text = await prom.text();
    assert.match(text, /gate_checks_total\{action="hris.employee_sync",result="allowed"\} 1/);
    assert.match(text, /gate_checks_total\{action="hris.employee_sync",result="skipped"\} 2/);
    assert.match(text, /entitlement_cache_lookups_total\{result="hit"\} 1/);
    assert.match(text, /entitlement_cache_lookups_total\{result="miss"\} 2/);
  });

  it('registry: handlers by action, and two handlers of one name are refused', () => {
    const registry = new HookRegistry(
      HOOK_HANDLERS.map(({ name, hook, action }) => ({
        name,
        hook,
        action,
        handler: () => {
          throw new Error('not resolved');
        },
      })),
    );
    assert.deepEqual([...registry.handledActions()].sort(), [
      'background_checks.credentialing',
      'background_checks.food_handler_verification',
      'background_checks.license_verification',
      'background_checks.union_verification',
      // esign.* are the esign module's own handlers (src/features/esign), not in this list.
      'hris.employee_sync',
      'hris.pos_sync',
      'hris.volunteer_management',
      'notifications.interview_reminder',
      'payroll.payroll_sync',
      'sms.interview_reminder',
      'video_meetings.create_meeting_link',
    ]);
    assert.deepEqual(registry.handlersFor('profile.accept_application'), []);
    const decl = declarationOf(MeetingHandler);
    assert.throws(
      () =>
        new HookRegistry([
          { ...decl, handler: () => new MeetingHandler() },
          { ...decl, handler: () => new MeetingHandler() },
        ]),
      /Two hook handlers/,
    );
    class Undeclared implements GatedHookHandler {
      async handle() {}
    }
    assert.throws(() => declarationOf(Undeclared), /not decorated/);
  });

  it('every declared handler is in plugin.manifest.json with the same hook and action', () => {
    const manifest = loadManifest();
    // The hooks module's handlers and those other features register in their own modules (status updates, call sheets).
    const declared = MODULES.flatMap((m) => m.hooks ?? []);
    assert.ok(HOOK_HANDLERS.every((h) => declared.includes(h)));
    for (const d of declared) {
      assert.ok(
        manifest.hooks.some((h) => h.name === d.name && h.hook === d.hook && h.action === d.action),
        d.name,
      );
    }
    assert.equal(manifest.hooks.length, declared.length);
  });
});
