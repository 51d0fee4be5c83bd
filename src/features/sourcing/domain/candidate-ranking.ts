/**
 * Talent rediscovery's ranking (docs/sourcing.md), pure so it can be read and tested alone:
 *   - `location` and `min_years` are filters: a candidate whose stated location does not
 *     contain the query (case-insensitive) or with fewer years of experience is left out;
 *   - each requested skill among the candidate's **verified** skills (case-insensitive): +10;
 *   - each requested credential found (case-insensitive, part of the name) among the
 *     candidate's **verified** credentials: +15 (a checked credential says more than a skill).
 *     Verified means what the application's credential check (issue 25) verified, where the
 *     latest application has one (its listing has requirements and the organization holds a
 *     verification action): the credentials meeting a requirement through a proof (a VC's
 *     signature, a reviewer's approval), named by their types and the requirement. Only
 *     without a check does the profile provider's `verified` flag stand in;
 *   - experience beyond `min_years`: +1 per full year, at most +10, so seniority orders
 *     equal matches but never outweighs a matched skill;
 *   - when skills or credentials are asked for, a candidate matching none is left out;
 *   - ties: the most recent application first, then the profile user id.
 */
import type { ApplicationCredentialCheck } from '../../applications/domain/application-credential-check';
import type { ImportedCredential } from '../../profiles/domain/profile-snapshot';

export interface SourcingQuery {
  skills: string[];
  credentials: string[];
  minYears?: number;
  location?: string;
  limit: number;
}

/** A candidate of the pool as their latest application shows them. */
export interface PoolCandidate {
  profileUserId: string;
  name: string;
  headline: string | null;
  location: string | null;
  skills: string[];
  credentials: ImportedCredential[];
  totalYears: number;
  lastApplicationId: string;
  lastListingId: string;
  lastAppliedAt: Date;
  /** The names of the credentials the latest application's credential check verified; absent when it has no check. */
  checkedCredentials?: string[];
}

/** What `matched_credentials` rests on: the application's credential check, or the provider's word. */
export type CredentialBasis = 'credential_check' | 'provider_flag';

export interface RankedCandidate extends PoolCandidate {
  score: number;
  matchedSkills: string[];
  matchedCredentials: string[];
  credentialBasis: CredentialBasis;
}

export const SKILL_POINTS = 10;
export const CREDENTIAL_POINTS = 15;
export const MAX_EXPERIENCE_POINTS = 10;

const norm = (value: string) => value.trim().toLocaleLowerCase('en');

export function rankCandidates(candidates: readonly PoolCandidate[], query: SourcingQuery): RankedCandidate[] {
  const wantedSkills = [...new Set(query.skills.map(norm).filter(Boolean))];
  const wantedCredentials = [...new Set(query.credentials.map(norm).filter(Boolean))];
  const location = query.location === undefined ? undefined : norm(query.location);
  const minYears = query.minYears ?? 0;
  const ranked: RankedCandidate[] = [];
  for (const candidate of candidates) {
    if (candidate.totalYears < minYears) continue;
    if (location !== undefined && !(candidate.location !== null && norm(candidate.location).includes(location))) continue;
    const held = new Map(candidate.skills.map((s) => [norm(s), s]));
    const matchedSkills = wantedSkills.filter((s) => held.has(s)).map((s) => held.get(s)!);
    const credentialBasis: CredentialBasis = candidate.checkedCredentials ? 'credential_check' : 'provider_flag';
    const verified = candidate.checkedCredentials ?? candidate.credentials.filter((c) => c.verified).map((c) => c.title);
    const matchedCredentials = wantedCredentials.flatMap((wanted) => {
      const found = verified.find((name) => norm(name).includes(wanted));
      return found ? [found] : [];
    });
    if ((wantedSkills.length > 0 || wantedCredentials.length > 0) && matchedSkills.length + matchedCredentials.length === 0) continue;
    const experience = Math.min(MAX_EXPERIENCE_POINTS, Math.max(0, Math.floor(candidate.totalYears - minYears)));
    const score = matchedSkills.length * SKILL_POINTS + matchedCredentials.length * CREDENTIAL_POINTS + experience;
    ranked.push({ ...candidate, score, matchedSkills, matchedCredentials, credentialBasis });
  }
  ranked.sort((a, b) => b.score - a.score || b.lastAppliedAt.getTime() - a.lastAppliedAt.getTime() || a.profileUserId.localeCompare(b.profileUserId));
  return ranked.slice(0, query.limit);
}

/** Generic VC types name no credential: `type: ["VerifiableCredential", "OpenBadgeCredential", "License"]` is a license. */
const GENERIC_TYPES = new Set(['verifiablecredential', 'openbadgecredential', 'achievementcredential', 'endorsementcredential']);

/**
 * The credentials an application's check verified: each requirement met by a credential
 * whose verification is `verified` (a proof checked out), named by the credential's own
 * types and the requirement's key (`rn_license` → "rn license"). Self-reported credentials
 * never appear: their verification is `unverified`.
 */
export function checkedCredentialNames(check: ApplicationCredentialCheck): string[] {
  const names = new Set<string>();
  for (const outcome of check.requirements) {
    if (outcome.status !== 'met' || outcome.evidence?.verification !== 'verified') continue;
    for (const type of outcome.evidence.types) if (!GENERIC_TYPES.has(norm(type))) names.add(type);
    names.add(outcome.requirement.replace(/_/g, ' '));
  }
  return [...names];
}
