/**
 * The provisioner port: what sets an action up for an organization at the integration's
 * side (create the webhook, the account, the sync). One provisioner per action group;
 * groups without their own use the default. Both calls must be idempotent per license:
 * a job may run twice. A DomainError of kind `upstream` (or any non-domain error) is
 * worth retrying; any other DomainError is final.
 */
export interface ProvisioningRequest {
  licenseId: string;
  organizationId: string;
  actionKey: string;
  groupKey: string;
}

export interface Provisioner {
  /** Returns a reference to what was set up. */
  provision(request: ProvisioningRequest): Promise<{ reference: string }>;
  deprovision(request: ProvisioningRequest): Promise<void>;
}

export interface ProvisionerDirectory {
  forGroup(groupKey: string): Provisioner;
}

export const PROVISIONER_DIRECTORY = Symbol('ProvisionerDirectory');
