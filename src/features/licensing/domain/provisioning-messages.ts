/** The `license-provisioning` queue's jobs, written through the outbox with deterministic ids. */
import type { OutboxMessage } from '../../../kernel/outbox';

export const LICENSE_PROVISIONING_QUEUE = 'license-provisioning';

export type ProvisioningStep = 'provision' | 'deprovision';

export interface LicenseProvisioningJob {
  license_id: string;
  step: ProvisioningStep;
}

function message(step: ProvisioningStep, licenseId: string): OutboxMessage {
  const data: LicenseProvisioningJob = { license_id: licenseId, step };
  return { queue: LICENSE_PROVISIONING_QUEUE, name: step, data, jobId: `${step}-${licenseId}` };
}

export const provisionMessage = (licenseId: string) => message('provision', licenseId);
export const deprovisionMessage = (licenseId: string) => message('deprovision', licenseId);
