/**
 * The default provisioner: sets nothing up outside, and records what it would have set
 * up, one row per license (insert-or-keep), so a job that runs twice provisions once and
 * the record shows it. Outside production it obeys failure plans (SandboxProvisioningFaults).
 */
import { randomToken } from '../../kernel/ids';
import { DomainError, upstream } from '../../kernel/errors';
import type { Provisioner, ProvisioningRequest } from '../../features/licensing/domain/provisioner';
import type { Database } from '../../platform/database/database';
import type { SandboxProvisioningFaults } from './sandbox-provisioning-faults';

export class SandboxProvisioner implements Provisioner {
  constructor(
    private readonly db: Database,
    /** Undefined in production: no plan can make it fail there. */
    private readonly faults: SandboxProvisioningFaults | undefined,
  ) {}

  async provision(request: ProvisioningRequest): Promise<{ reference: string }> {
    const fault = await this.faults?.consume(request.organizationId, request.actionKey);
    if (fault?.kind === 'transient') throw upstream('provisioner_unavailable', `Sandbox provisioner failure #${fault.injected} (planned): ${fault.reason}`);
    if (fault?.kind === 'permanent')
      throw new DomainError('invalid', 'provisioning_rejected', `Sandbox provisioner rejected the action (planned): ${fault.reason}`);

    await this.db('hi_sandbox_provisionings')
      .insert({
        license_id: request.licenseId,
        organization_id: request.organizationId,
        action_key: request.actionKey,
        group_key: request.groupKey,
        reference: `sbx_${request.groupKey}_${randomToken(12)}`,
        provisioned_at: new Date(),
      })
      .onConflict('license_id')
      .ignore();
    const row = await this.db('hi_sandbox_provisionings').where({ license_id: request.licenseId }).first('reference');
    return { reference: row.reference };
  }

  async deprovision(request: ProvisioningRequest): Promise<void> {
    await this.db('hi_sandbox_provisionings').where({ license_id: request.licenseId }).whereNull('deprovisioned_at').update({ deprovisioned_at: new Date() });
  }
}
