/**
 * What the candidate in the connect popup is told when the profile provider fails. The
 * details went to the log where the failure was understood; a refused client is the
 * operator's problem, so the candidate only learns that sign-in is unavailable here.
 */
import { ProviderAuthorizationError } from '../../profiles/domain/profile-provider';
import { isDomainError } from '../../../kernel/errors';

export type ProviderFailureCode = 'provider_unavailable' | 'provider_client_rejected' | 'provider_error';

export const PROVIDER_FAILURE_MESSAGES: Record<ProviderFailureCode, string> = {
  provider_unavailable: 'The profile provider is not answering right now. Please try again in a few minutes.',
  provider_client_rejected: 'Signing in with your profile is not available on this site right now. The site’s operator has been told; please try again later.',
  provider_error: 'The profile provider sent an answer we could not use, so your profile was not shared. Please try again later.',
};

export function providerFailureCode(error: unknown): ProviderFailureCode {
  if (error instanceof ProviderAuthorizationError) return 'provider_error';
  if (isDomainError(error) && (error.code === 'provider_unavailable' || error.code === 'provider_client_rejected')) return error.code;
  return 'provider_error';
}
