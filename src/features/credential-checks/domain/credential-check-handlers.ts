/**
 * The `credentials.presented` hook for the four verification actions that check credentials
 * against a listing's requirements (credentialing for schools, license verification for
 * healthcare, food handler cards for restaurants, union membership for entertainment): one
 * handler parameterized by action, each registration gated by its own license. The result
 * is published as `credential_check.completed` (once per action and host check id).
 */
import { z } from 'zod';
import type { EventPublisher } from '../../../kernel/events';
import { hostId } from '../../hooks/domain/payloads';
import { parsePayload, type GatedHookHandler, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import type { CredentialCheckService } from './credential-check-service';
import type { PresentedInput } from './credential-examiner';
import { presentedCredentialsSchema } from './presented-input-schema';

export const CREDENTIALS_PRESENTED_HOOK = 'credentials.presented';

export const CREDENTIAL_CHECK_ACTIONS = [
  { action: 'background_checks.credentialing', name: 'credentialing-check', what: 'teaching certificates, degrees and clearances' },
  { action: 'background_checks.license_verification', name: 'license-verification-check', what: 'professional licenses' },
  { action: 'background_checks.food_handler_verification', name: 'food-handler-check', what: 'food handler cards' },
  { action: 'background_checks.union_verification', name: 'union-verification-check', what: 'union membership' },
] as const;

export type CredentialCheckAction = (typeof CREDENTIAL_CHECK_ACTIONS)[number]['action'];

const credentialsPresented = z.object({
  check_id: hostId,
  listing_id: z.string().min(1).max(100),
  candidate_id: hostId.optional(),
  credentials: presentedCredentialsSchema,
});

export class CredentialCheckHookHandler implements GatedHookHandler {
  constructor(
    private readonly checks: CredentialCheckService,
    private readonly events: EventPublisher,
    private readonly action: CredentialCheckAction,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const presented = parsePayload(credentialsPresented, payload);
    const result = await this.checks.checkForListing(organizationId, presented.listing_id, presented.credentials as PresentedInput[]);
    const report = {
      action: this.action,
      check_id: presented.check_id,
      listing_id: presented.listing_id,
      ...(presented.candidate_id ? { candidate_id: presented.candidate_id } : {}),
      status: result.status,
      requirements: result.outcomes,
    };
    // The hook fired twice records one event per action.
    await this.events.publish('credential_check.completed', organizationId, report, {
      dedupeKey: `credential_check.completed:${this.action}:${organizationId}:${presented.check_id}`,
    });
    return report;
  }
}
