/**
 * Failure plans for the sandbox provisioner: "fail the next N provisionings of action A
 * for organization O" (or every one), transiently (retried) or permanently (final). The
 * plans live in the database, so a plan made by a test or an operator reaches whichever
 * worker process runs the job. The composition root never wires them in production.
 */
import type { Database } from '../../platform/database/database';

export type FaultKind = 'transient' | 'permanent';

export interface FaultPlan {
  organizationId: string;
  actionKey: string;
  kind: FaultKind;
  /** How many provisionings fail; null fails every one. */
  times: number | null;
  reason: string;
}

export interface InjectedFault {
  kind: FaultKind;
  reason: string;
  /** How many failures this plan has injected so far, this one included. */
  injected: number;
}

export class SandboxProvisioningFaults {
  constructor(private readonly db: Database) {}

  async plan(plan: FaultPlan): Promise<void> {
    await this.db('hi_sandbox_provisioning_faults')
      .insert({
        organization_id: plan.organizationId,
        action_key: plan.actionKey,
        kind: plan.kind,
        failures_remaining: plan.times,
        failures_injected: 0,
        reason: plan.reason,
        created_at: new Date(),
      })
      .onConflict(['organization_id', 'action_key'])
      .merge(['kind', 'failures_remaining', 'failures_injected', 'reason', 'created_at']);
  }

  async injected(organizationId: string, actionKey: string): Promise<number> {
    const row = await this.db('hi_sandbox_provisioning_faults').where({ organization_id: organizationId, action_key: actionKey }).first('failures_injected');
    return row ? Number(row.failures_injected) : 0;
  }

  /** Atomically takes one failure from the plan, if one is left. */
  async consume(organizationId: string, actionKey: string): Promise<InjectedFault | undefined> {
    const [row] = await this.db('hi_sandbox_provisioning_faults')
      .where({ organization_id: organizationId, action_key: actionKey })
      .andWhere((q) => q.whereNull('failures_remaining').orWhere('failures_remaining', '>', 0))
      .update({
        failures_remaining: this.db.raw('case when failures_remaining is null then null else failures_remaining - 1 end'),
        failures_injected: this.db.raw('failures_injected + 1'),
      })
      .returning(['kind', 'reason', 'failures_injected']);
    return row ? { kind: row.kind, reason: row.reason, injected: Number(row.failures_injected) } : undefined;
  }
}
