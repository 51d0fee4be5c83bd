/**
 * The `credentials.presented` hook for the four verification actions that check credentials
 * against a listing's requirements (credentialing for schools, license verification for
 * healthcare, food handler cards for restaurants, union membership for entertainment): one
 * handler parameterized by action, each registration gated by its own license. The result
 * is published as `credential_check.completed` (once per action and host check id). With a
 * candidate named, each requirement met by a verifiable credential with an expiry is held
 * from then on (compliance: expiry notices, re-verification on schedule).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { EventPublisher } from '../../../kernel/events';
import { hostId, person } from '../../hooks/domain/payloads';
import { parsePayload, type GatedHookHandler, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import type { CredentialCheckService } from './credential-check-service';
import type { PresentedInput } from './credential-examiner';
import { presentedCredentialsSchema } from './presented-input-schema';
import type { KeptCredential, NewHeldCredential } from '../../compliance/domain/held-credential';
import type { CheckResult } from './credential-check-service';

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
  /** Who holds them: with an email, reminders before a held credential expires go there. One that does not parse is ignored, never failing the check. */
  candidate: person.partial().optional().catch(undefined),
  credentials: presentedCredentialsSchema,
});

export class CredentialCheckHookHandler implements GatedHookHandler {
  constructor(
    private readonly checks: CredentialCheckService,
    private readonly events: EventPublisher,
    private readonly action: CredentialCheckAction,
    private readonly hold?: (credential: NewHeldCredential) => Promise<unknown>,
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
    if (presented.candidate_id && this.hold) {
      // The host's person may name their language: the expiry reminders are written in it.
      const candidate = presented.candidate;
      const holder = candidate?.email ? { name: candidate.name ?? null, email: candidate.email, language: candidate.language ?? null } : undefined;
      for (const held of heldFrom(presented.credentials as PresentedInput[], result)) {
        await this.hold({ ...held, organizationId, profileUserId: presented.candidate_id, listingId: presented.listing_id, ...(holder ? { holder } : {}) });
      }
    }
    // The hook fired twice records one event per action.
    await this.events.publish('credential_check.completed', organizationId, report, {
      dedupeKey: `credential_check.completed:${this.action}:${organizationId}:${presented.check_id}`,
    });
    return report;
  }
}

/** What a requirement met by a verifiable credential with an expiry holds from then on: the credential kept for re-verification. */
export type HeldFromCheck = Pick<NewHeldCredential, 'requirementKey' | 'credentialType' | 'source' | 'sourceId' | 'expiresAt'> & { kept: KeptCredential };

/** The verifiable credentials that met a requirement and have an expiry, as held credentials (the credential kept). */
export function heldFrom(inputs: PresentedInput[], result: CheckResult): HeldFromCheck[] {
  const held: HeldFromCheck[] = [];
  for (const outcome of result.outcomes) {
    const evidence = outcome.evidence;
    if (outcome.status !== 'met' || !evidence?.valid_until || (evidence.source !== 'vc_jwt' && evidence.source !== 'data_integrity')) continue;
    // The examined credentials are in the order presented: the evidence's credential is the input at the same place.
    const index = result.credentials.findIndex(
      (c) =>
        c.source === evidence.source && c.id === evidence.credential_id && c.issuer === evidence.issuer && c.validUntil?.toISOString() === evidence.valid_until,
    );
    const input = inputs[index];
    if (!input || input.format === 'self_reported') continue;
    const kept: KeptCredential = {
      format: input.format,
      credential: input.format === 'vc+jwt' ? input.credential : JSON.stringify(input.credential),
      issuer: evidence.issuer,
    };
    held.push({
      requirementKey: outcome.requirement,
      credentialType: evidence.types.at(-1) ?? outcome.requirement,
      source: evidence.source,
      sourceId: evidence.credential_id ?? `sha256:${createHash('sha256').update(kept.credential).digest('hex')}`,
      expiresAt: new Date(evidence.valid_until),
      kept,
    });
  }
  return held;
}
