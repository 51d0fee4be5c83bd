/**
 * What `fireHook(hook, organizationId, payload)` does: for each handler registered for the
 * hook, in registration order, ask the gate; run the handler only where the organization
 * holds an active license for its action. Nothing here throws for a refusal:
 *
 *   ran      the handler ran (its report, e.g. a job id, is passed back)
 *   skipped  no active license (`license_inactive`; `payment_required` when billing suspended
 *            the organization), or the handler refused the input
 *            (`invalid_payload: …` and other non-upstream DomainErrors)
 *   failed   the entitlement read or the handler failed unexpectedly, or upstream
 *            (retrying the hook may help; handlers are idempotent)
 *
 * Skips are logged (a missing license at debug, a refused input at info) and counted (the gate
 * counts every decision in GateMetrics).
 */
import { isDomainError } from '../../../kernel/errors';
import type { Logger } from '../../../kernel/logger';
import type { HookHandlerReport } from './hook-handler';
import type { HookGate } from './hook-gate';
import type { HookRegistry } from './hook-registry';

export type HookOutcomeStatus = 'ran' | 'skipped' | 'failed';

export interface HookOutcome {
  handler: string;
  action: string;
  status: HookOutcomeStatus;
  /** Why it was skipped or failed. */
  reason?: string;
  /** What a handler that ran reports. */
  result?: HookHandlerReport;
}

export interface HookDispatch {
  hook: string;
  handled: string[];
  skipped: string[];
  failed: string[];
  outcomes: HookOutcome[];
}

export const LICENSE_INACTIVE = 'license_inactive';

export class HookDispatcher {
  constructor(
    private readonly registry: HookRegistry,
    private readonly gate: HookGate,
    private readonly logger: Logger,
    /** Why a gate refusal happened when it is not a missing license (billing: `payment_required`). */
    private readonly refusalReason: (organizationId: string) => Promise<string | undefined> = async () => undefined,
  ) {}

  async fire(hook: string, organizationId: string, payload: object): Promise<HookDispatch> {
    const dispatch: HookDispatch = { hook, handled: [], skipped: [], failed: [], outcomes: [] };
    const record = (outcome: HookOutcome) => {
      dispatch.outcomes.push(outcome);
      (outcome.status === 'ran' ? dispatch.handled : outcome.status === 'skipped' ? dispatch.skipped : dispatch.failed).push(outcome.handler);
    };
    const input = (payload ?? {}) as Record<string, unknown>;
    // Asked once per call: a hook with several unlicensed handlers reads the standing once.
    let refusal: Promise<string> | undefined;
    for (const binding of this.registry.forHook(hook)) {
      const base = { handler: binding.name, action: binding.action };
      let allowed: boolean;
      try {
        allowed = await this.gate.allows(organizationId, binding.action);
      } catch (error) {
        this.logger.error({ hook, handler: binding.name, organizationId, err: (error as Error).message }, 'entitlement check failed; handler not run');
        record({ ...base, status: 'failed', reason: 'entitlement_unavailable' });
        continue;
      }
      if (!allowed) {
        refusal ??= this.refusalReason(organizationId).then(
          (reason) => reason ?? LICENSE_INACTIVE,
          () => LICENSE_INACTIVE,
        );
        const reason = await refusal;
        // At debug: an organization holding only some of a hook's actions is the usual case, not news (every
        // decision is counted by the gate's metrics, and the caller is answered the skip with its reason).
        this.logger.debug({ hook, handler: binding.name, action: binding.action, organizationId, reason }, 'hook handler skipped');
        record({ ...base, status: 'skipped', reason });
        continue;
      }
      try {
        const result = await binding.handler().handle(organizationId, input);
        record({ ...base, status: 'ran', ...(result ? { result } : {}) });
      } catch (error) {
        if (isDomainError(error) && error.kind !== 'upstream') {
          const reason = `${error.code}: ${error.message}`;
          this.logger.info({ hook, handler: binding.name, organizationId, reason }, 'hook handler skipped');
          record({ ...base, status: 'skipped', reason });
        } else {
          const reason = isDomainError(error) ? `${error.code}: ${error.message}` : 'handler_error';
          this.logger.error({ hook, handler: binding.name, organizationId, err: (error as Error).message }, 'hook handler failed');
          record({ ...base, status: 'failed', reason });
        }
      }
    }
    return dispatch;
  }
}
