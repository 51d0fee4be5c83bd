/** Payouts run only under an active license of their action, as every hook handler does. */
import { DomainError } from '../../../kernel/errors';

export interface PayoutsGate {
  allows(organizationId: string, actionKey: string): boolean | Promise<boolean>;
}

export async function requireLicense(gate: PayoutsGate, organizationId: string, actionKey: string): Promise<void> {
  if (!(await gate.allows(organizationId, actionKey)))
    throw new DomainError(
      'forbidden',
      'license_required',
      `The ${actionKey} license is not active for this organization (POST /v1/integrations/licenses/${actionKey}/activate)`,
      { action_key: actionKey },
    );
}
