import { DomainError } from '../../../kernel/errors';

/**
 * The question other areas ask: does organization X hold an active license for action Y?
 * Registered under ENTITLEMENTS (LicenseService answers from storage); a caching
 * implementation can replace the registration and invalidate on LicenseChanges.
 */
export interface Entitlements {
  isActive(organizationId: string, actionKey: string): Promise<boolean>;
  /** Throws 403 `license_required` unless the license is active. */
  requireActive(organizationId: string, actionKey: string): Promise<void>;
}

export const ENTITLEMENTS = Symbol('Entitlements');

/** The action an organization must hold to take profile applications at all. */
export const ACCEPT_APPLICATION = 'profile.accept_application';

export const licenseRequired = (actionKey: string) =>
  new DomainError(
    'forbidden',
    'license_required',
    `This organization has no active license for '${actionKey}' (POST /v1/integrations/licenses/${actionKey}/activate)`,
    {
      action_key: actionKey,
    },
  );
