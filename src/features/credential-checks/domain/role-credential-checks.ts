/**
 * Employees' verifiable credentials checked against one requirement of their role: the
 * organization's trust list applied as for listings, the same examiners and matcher, and the
 * credential kept for re-verification when it met the requirement and has an expiry.
 */
import type { CredentialRequirement } from '../../listings/domain/credential-requirements';
import type { PresentedVerifiableCredential, RoleCredentialChecker, RoleCredentialVerdict } from '../../employees/domain/role-credential-check';
import { heldFrom } from './credential-check-handlers';
import type { CredentialCheckService } from './credential-check-service';

export class RoleCredentialChecks implements RoleCredentialChecker {
  constructor(private readonly checks: CredentialCheckService) {}

  async check(organizationId: string, requirement: CredentialRequirement, credential: PresentedVerifiableCredential): Promise<RoleCredentialVerdict> {
    const result = await this.checks.checkWithTrustLists(organizationId, [requirement], [credential]);
    const [held] = heldFrom([credential], result);
    return { outcome: result.outcomes[0]!, held: held ?? null };
  }
}
