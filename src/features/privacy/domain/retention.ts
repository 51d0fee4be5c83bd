/**
 * Retention rules. An organization's candidate is erased (every registered store, through
 * the erasure job, provider tokens revoked) when
 * - every listing they applied to closed more than `applicationsDays` ago, unless one of
 *   their applications led to a hire the organization reported (a closed
 *   listing's last change, `updatedAt`, stands for its closing time: never earlier than it,
 *   so nothing goes early; a host that reports no `updatedAt` keeps the data), or
 * - they authorized (or were imported) more than `unfinishedAuthorizationsDays` ago and
 *   never applied;
 * unless a legal hold is placed on them.
 */
export interface RetentionSettings {
  applicationsDays: number;
  unfinishedAuthorizationsDays: number;
}

export const RETENTION_DEFAULTS: RetentionSettings = { applicationsDays: 365, unfinishedAuthorizationsDays: 30 };

export type RetentionRule = 'applications' | 'unfinished_authorizations';

export interface RetentionRepository {
  /** The organization's settings; null fields take the defaults. */
  settings(organizationId: string): Promise<{ applicationsDays: number | null; unfinishedAuthorizationsDays: number | null; updatedAt: Date | null }>;
  saveSettings(organizationId: string, settings: { applicationsDays: number | null; unfinishedAuthorizationsDays: number | null }, at: Date): Promise<void>;
  /** Candidates who never applied, last authorized or imported before the organization's cut-off. */
  unfinished(now: Date, defaultDays: number, limit: number): Promise<{ organizationId: string; profileUserId: string }[]>;
  /** Candidates with applications, each with the listings applied to, the organization's applications_days and whether one application led to a hire. */
  applicants(
    limit: number,
  ): Promise<{ organizationId: string; profileUserId: string; listingIds: string[]; applicationsDays: number | null; hired: boolean }[]>;
}

export const RETENTION_REPOSITORY = Symbol('RetentionRepository');

/** Whether every listing is closed and was last changed more than `days` before `now`. */
export function allListingsExpired(listings: readonly ({ status: string; updatedAt?: Date } | undefined)[], days: number, now: Date): boolean {
  const cutoff = now.getTime() - days * 86_400_000;
  return listings.length > 0 && listings.every((l) => l !== undefined && l.status === 'closed' && l.updatedAt !== undefined && l.updatedAt.getTime() <= cutoff);
}
