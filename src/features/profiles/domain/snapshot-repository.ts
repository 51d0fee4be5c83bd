import type { ProfileSnapshot } from './profile-snapshot';

export interface ProfileSnapshotRepository {
  find(organizationId: string, profileUserId: string): Promise<ProfileSnapshot | undefined>;
  /** Upsert: the latest import replaces the previous one. */
  save(snapshot: ProfileSnapshot): Promise<void>;
}

export const PROFILE_SNAPSHOT_REPOSITORY = Symbol('ProfileSnapshotRepository');
