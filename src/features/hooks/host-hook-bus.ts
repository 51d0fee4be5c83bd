/**
 * The host's hook bus drives the gated handlers: the plugin listens on it for every hook a
 * handler takes, and dispatches each event through the same intake as fireHook (so an
 * event both emitted and fired runs once).
 */
import type { HookIntake } from './domain/hook-intake';
import type { Disposer } from '../../kernel/disposer';
import type { Logger } from '../../kernel/logger';
import type { HookBus } from '../../host/contract';

export function listenToHostHooks(bus: HookBus, hooks: Iterable<string>, intake: HookIntake, logger: Logger): Disposer[] {
  return [...new Set(hooks)].map((hook) =>
    bus.on(hook, async (event) => {
      const result = await intake.fire('bus', event.hook, event.organizationId, event.payload ?? {});
      logger.info(
        { hook: event.hook, organizationId: event.organizationId, handled: result.handled, skipped: result.skipped, failed: result.failed },
        'hook from the host bus dispatched',
      );
    }),
  );
}
