/**
 * The port that examines what an applicant presents (a VC-JWT or a Data Integrity-secured VC;
 * vendor reports and reviewed documents are further sources behind the same port) and says
 * what it is and whether its proof checks out.
 */
import type { PresentedCredential } from './presented-credential';

export type PresentedInput =
  | { format: 'vc+jwt'; credential: string }
  | { format: 'vc+ld+json'; credential: Record<string, unknown> }
  | { format: 'self_reported'; title: string; issuer: string; valid_until?: string | null };

export interface CredentialExaminer {
  examine(input: PresentedInput, now: Date): Promise<PresentedCredential>;
}

export const CREDENTIAL_EXAMINER = Symbol('CredentialExaminer');
