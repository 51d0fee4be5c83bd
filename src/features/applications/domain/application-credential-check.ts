/**
 * The automatic credential check every profile application gets when its listing has
 * requirements and the organization holds a verification action: each requirement met,
 * missing, expired, unverified or pending, with its evidence. The credential-checks feature
 * implements the port; the application carries the result (API, pipeline, application.submitted).
 */
import type { RequirementOutcome } from '../../credential-checks/domain/match-requirements';

export interface ApplicationCredentialCheck {
  status: 'met' | 'not_met' | 'pending';
  requirements: RequirementOutcome[];
  checked_at: string;
}

/** What the check needs of an application. */
export interface CheckedApplication {
  id: string;
  listingId: string;
  importedCredentials: { title: string; issuer: string }[];
  /** Where a background-check vendor's invitation goes (absent or null: nowhere). */
  contact?: { email: string } | null;
}

export interface ApplicationCredentialChecker {
  /** One check per application that gets one (absent: no requirements, or no verification action held). */
  checkAll(organizationId: string, applications: CheckedApplication[]): Promise<Map<string, ApplicationCredentialCheck>>;
}

export const APPLICATION_CREDENTIAL_CHECKER = Symbol('ApplicationCredentialChecker');
