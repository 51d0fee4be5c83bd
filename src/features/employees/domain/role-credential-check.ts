/**
 * The port through which an employee's verifiable credential is checked against one
 * requirement of their role: the same examination as a candidate's (proof, issuer and trust
 * list, validity, status list). The credential-checks feature implements it, as it does the
 * applications' automatic check.
 */
import type { CredentialRequirement } from '../../listings/domain/credential-requirements';
import type { RequirementOutcome } from '../../credential-checks/domain/match-requirements';
import type { NewHeldCredential } from '../../compliance/domain/held-credential';

/** A VC-JWT, or a VC secured with a Data Integrity proof (a self-reported title proves nothing about an employee). */
export type PresentedVerifiableCredential = { format: 'vc+jwt'; credential: string } | { format: 'vc+ld+json'; credential: Record<string, unknown> };

export interface RoleCredentialVerdict {
  outcome: RequirementOutcome;
  /** What compliance holds when the credential met the requirement and has an expiry (null otherwise). */
  held: Pick<NewHeldCredential, 'credentialType' | 'source' | 'sourceId' | 'expiresAt' | 'kept'> | null;
}

export interface RoleCredentialChecker {
  check(organizationId: string, requirement: CredentialRequirement, credential: PresentedVerifiableCredential): Promise<RoleCredentialVerdict>;
}

export const ROLE_CREDENTIAL_CHECKER = Symbol('RoleCredentialChecker');
