/**
 * Talent rediscovery's ranking (docs/sourcing.md), pure so it can be read and tested alone:
 *   - `location` and `min_years` are filters: a candidate whose stated location does not
 *     contain the query (case-insensitive) or with fewer years of experience is left out;
 *   - each requested skill among the candidate's **verified** skills (case-insensitive): +10;
 *   - each requested credential found (case-insensitive, part of the title) among the
 *     candidate's **verified** credentials: +15 (a checked credential says more than a skill);
 *   - experience beyond `min_years`: +1 per full year, at most +10, so seniority orders
 *     equal matches but never outweighs a matched skill;
 *   - when skills or credentials are asked for, a candidate matching none is left out;
 *   - ties: the most recent application first, then the profile user id.
 */
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
}

export interface RankedCandidate extends PoolCandidate {
  score: number;
  matchedSkills: string[];
  matchedCredentials: string[];
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
    const verified = candidate.credentials.filter((c) => c.verified);
    const matchedCredentials = wantedCredentials.flatMap((wanted) => {
      const found = verified.find((c) => norm(c.title).includes(wanted));
      return found ? [found.title] : [];
    });
    if ((wantedSkills.length > 0 || wantedCredentials.length > 0) && matchedSkills.length + matchedCredentials.length === 0) continue;
    const experience = Math.min(MAX_EXPERIENCE_POINTS, Math.max(0, Math.floor(candidate.totalYears - minYears)));
    const score = matchedSkills.length * SKILL_POINTS + matchedCredentials.length * CREDENTIAL_POINTS + experience;
    ranked.push({ ...candidate, score, matchedSkills, matchedCredentials });
  }
  ranked.sort((a, b) => b.score - a.score || b.lastAppliedAt.getTime() - a.lastAppliedAt.getTime() || a.profileUserId.localeCompare(b.profileUserId));
  return ranked.slice(0, query.limit);
}
