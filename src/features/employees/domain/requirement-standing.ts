/**
 * Where an employee stands on one requirement of a role, from the credential they hold for
 * it (if any): `met`, `expiring` (inside the organization's furthest reminder), `expired`
 * (past its expiry, or valid for less than the requirement's minimum), `missing` (nothing
 * held, or what was held was revoked or is no longer trusted). Pure.
 */
import type { CredentialRequirement } from '../../listings/domain/credential-requirements';

export type StandingStatus = 'met' | 'expiring' | 'expired' | 'missing';

export interface HeldForRequirement {
  expiresAt: Date;
  /** active, revoked or untrusted (compliance's state). */
  state: string;
  stateReason: string | null;
  source: string;
  sourceId: string;
}

export interface RequirementStanding {
  requirement: string;
  status: StandingStatus;
  reason: string | null;
  expiresAt: Date | null;
}

const DAY_MS = 86_400_000;

export function standingOf(
  requirement: CredentialRequirement,
  held: HeldForRequirement | undefined,
  now: Date,
  expiringWithinDays: number,
): RequirementStanding {
  const base = { requirement: requirement.key, expiresAt: held?.expiresAt ?? null };
  if (!held) return { ...base, status: 'missing', reason: 'no_matching_credential' };
  if (held.state !== 'active') return { ...base, status: 'missing', reason: held.stateReason ?? held.state };
  const left = held.expiresAt.getTime() - now.getTime();
  if (left <= 0) return { ...base, status: 'expired', reason: 'credential_expired' };
  if (left < requirement.min_validity_days * DAY_MS) return { ...base, status: 'expired', reason: 'validity_below_minimum' };
  if (left <= expiringWithinDays * DAY_MS) return { ...base, status: 'expiring', reason: null };
  return { ...base, status: 'met', reason: null };
}
