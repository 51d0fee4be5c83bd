/**
 * Which catalog actions this build can actually perform. An action is runnable when a hook
 * handler declares it (the hooks registry) or the plugin performs it itself (the profile
 * apply flow). Nothing else may be sold: see Purchasability (billing) and docs/billing.md.
 */
import { ACCEPT_APPLICATION } from './entitlements';

export interface RunnableActions {
  /** true when this build has code that performs the action. */
  canRun(actionKey: string): boolean;
  /** The connector kinds the action's steps need that nothing resolves for the organization (none: it can run now). */
  missingConnections(organizationId: string, actionKey: string): Promise<string[]>;
}

export const RUNNABLE_ACTIONS = Symbol('RunnableActions');

/** job_boards.post_jobs: the job-feeds feature publishes the feeds itself (docs/job-feeds.md). */
export const POST_JOBS = 'job_boards.post_jobs';

/**
 * Actions performed by the plugin's own features through their API, not by a hook handler:
 * the profile apply flow, the verification API (src/features/verifications) and the job feeds.
 */
export const BUILT_IN_ACTIONS: ReadonlySet<string> = new Set([
  ACCEPT_APPLICATION,
  'sms.two_factor_auth',
  POST_JOBS,
  // The compliance feature: expiries tracked, credential.expiring/expired, GET /v1/compliance (docs/credentials.md).
  'background_checks.compliance_tracking',
]);

/**
 * Built-in actions plus those with a registered handler (`handled`, from the hook
 * registry); `stepsOf` names the connector kinds an action's handlers perform steps
 * through, `availableKinds` those that resolve for an organization (ConnectorResolver).
 */
export function runnableActions(
  handled: () => ReadonlySet<string>,
  stepsOf: (actionKey: string) => readonly string[],
  availableKinds: (organizationId: string) => Promise<ReadonlySet<string>>,
): RunnableActions {
  return {
    canRun: (actionKey) => BUILT_IN_ACTIONS.has(actionKey) || handled().has(actionKey),
    async missingConnections(organizationId, actionKey) {
      const steps = stepsOf(actionKey);
      if (steps.length === 0) return [];
      const available = await availableKinds(organizationId);
      return [...new Set(steps)].filter((kind) => !available.has(kind));
    },
  };
}
