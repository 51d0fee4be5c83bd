/**
 * What an application carries from a profile: verified skills only, every credential
 * with its verified flag, the experience summary and the work history. Built from the provider's answer.
 */
import { summarizeExperience, type ExperienceSummary } from './experience-summary';
import type { ProviderProfile } from './provider-profile';
import { toWorkHistory, type WorkHistoryEntry } from './work-history';

export interface ImportedCredential {
  title: string;
  issuer: string;
  verified: boolean;
  issued_at: string;
}

export interface ProfileSnapshot {
  organizationId: string;
  profileUserId: string;
  name: string;
  headline: string | null;
  profileUrl: string;
  skills: string[];
  credentials: ImportedCredential[];
  experienceSummary: ExperienceSummary;
  workHistory: WorkHistoryEntry[];
  importedAt: Date;
}

/** A snapshot older than this, or older than the latest authorization, is imported again. */
export const SNAPSHOT_FRESH_FOR_MS = 24 * 3600 * 1000;

export function buildSnapshot(organizationId: string, profile: ProviderProfile, now: Date): ProfileSnapshot {
  const skills = [
    ...new Set(
      profile.skills
        .filter((s) => s.verified === true)
        .map((s) => s.name.trim())
        .filter(Boolean),
    ),
  ];
  return {
    organizationId,
    profileUserId: profile.id,
    name: profile.name,
    headline: profile.headline,
    profileUrl: profile.profile_url,
    skills,
    credentials: profile.credentials.map((c) => ({ title: c.title, issuer: c.issuer, verified: c.verified === true, issued_at: c.issued_at.slice(0, 10) })),
    experienceSummary: summarizeExperience(profile.positions, now),
    workHistory: toWorkHistory(profile.positions),
    importedAt: now,
  };
}

/** Snapshots imported after this are fresh (if also imported after the latest authorization). */
export const snapshotFreshSince = (now: Date) => new Date(now.getTime() - SNAPSHOT_FRESH_FOR_MS);

export function isSnapshotFresh(snapshot: ProfileSnapshot | undefined, authorizedAt: Date, now: Date): snapshot is ProfileSnapshot {
  if (!snapshot) return false;
  const importedAt = snapshot.importedAt.getTime();
  return importedAt >= authorizedAt.getTime() && importedAt > snapshotFreshSince(now).getTime();
}
