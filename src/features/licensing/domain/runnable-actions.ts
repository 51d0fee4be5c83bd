/**
 * Which catalog actions this build can actually perform. An action is runnable when a hook
 * handler declares it (the hooks registry) or a feature module performs it itself and says
 * so (`PluginModule.builtInActions`). Nothing else may be sold: see Purchasability
 * (billing) and docs/billing.md.
 */

export interface RunnableActions {
  /** true when this build has code that performs the action. */
  canRun(actionKey: string): boolean;
  /** The connector kinds the action's steps need that nothing resolves for the organization (none: it can run now). */
  missingConnections(organizationId: string, actionKey: string): Promise<string[]>;
}

export const RUNNABLE_ACTIONS = Symbol('RunnableActions');

/**
 * The built-in actions: those the modules declare in `builtInActions` (performed by the
 * plugin's own features through their API, not by a hook handler), collected by plugin.ts.
 */
export const BUILT_IN_ACTIONS = Symbol('BuiltInActions');

/** The connector kinds each built-in action needs (`PluginModule.builtInActionSteps`), collected by plugin.ts: a Map. */
export const BUILT_IN_ACTION_STEPS = Symbol('BuiltInActionSteps');

/**
 * Built-in actions plus those with a registered handler (`handled`, from the hook
 * registry); `stepsOf` names the connector kinds an action's handlers perform steps
 * through, `availableKinds` those that resolve for an organization (ConnectorResolver).
 */
export function runnableActions(
  builtIn: ReadonlySet<string>,
  handled: () => ReadonlySet<string>,
  stepsOf: (actionKey: string) => readonly string[],
  availableKinds: (organizationId: string) => Promise<ReadonlySet<string>>,
): RunnableActions {
  return {
    canRun: (actionKey) => builtIn.has(actionKey) || handled().has(actionKey),
    async missingConnections(organizationId, actionKey) {
      const steps = stepsOf(actionKey);
      if (steps.length === 0) return [];
      const available = await availableKinds(organizationId);
      return [...new Set(steps)].filter((kind) => !available.has(kind));
    },
  };
}
