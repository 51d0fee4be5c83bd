/**
 * Imports a candidate's profile for an organization: fetch with the stored access token
 * (refreshed first when it is known to have expired, or once after the provider rejects
 * it; one refresh at a time per authorization, see TokenRefresher), build the snapshot,
 * store it. Used by the profile-import job and, with a bounded wait, by the apply
 * endpoint when no fresh snapshot exists.
 */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { upstream } from '../../../kernel/errors';
import { CANDIDATE_AUTHORIZATION_REPOSITORY, type CandidateAuthorization, type CandidateAuthorizationRepository } from './candidate-authorization';
import { PROFILE_PROVIDER, ProviderAuthorizationError, type ProfileProvider } from './profile-provider';
import { notAuthorized, TokenRefresher } from './token-refresher';
import { buildSnapshot, isSnapshotFresh, type ProfileSnapshot } from './profile-snapshot';
import type { ProviderProfile } from './provider-profile';
import { PROFILE_SNAPSHOT_REPOSITORY, type ProfileSnapshotRepository } from './snapshot-repository';

export { notAuthorized } from './token-refresher';

/** How long a caller waits for an on-demand import (milliseconds) before answering 503. */
export const ON_DEMAND_IMPORT_WAIT_MS = Symbol('OnDemandImportWaitMs');

@injectable()
export class ProfileImporter {
  constructor(
    @inject(PROFILE_PROVIDER) private readonly provider: ProfileProvider,
    @inject(CANDIDATE_AUTHORIZATION_REPOSITORY) private readonly authorizations: CandidateAuthorizationRepository,
    @inject(PROFILE_SNAPSHOT_REPOSITORY) private readonly snapshots: ProfileSnapshotRepository,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ON_DEMAND_IMPORT_WAIT_MS) private readonly waitMs: number,
    @inject(TokenRefresher) private readonly refresher: TokenRefresher,
  ) {}

  async import(organizationId: string, profileUserId: string): Promise<ProfileSnapshot> {
    const authorization = await this.authorizations.find(organizationId, profileUserId);
    if (!authorization) throw notAuthorized();
    const profile = await this.fetchWithRefresh(authorization);
    if (profile.id !== profileUserId) {
      throw upstream('provider_error', 'The profile provider answered with another candidate than the one authorized', { status: 502 });
    }
    const snapshot = buildSnapshot(organizationId, profile, this.clock.now());
    await this.snapshots.save(snapshot);
    return snapshot;
  }

  /**
   * The stored snapshot when it is fresh, otherwise a new import, waited for at most
   * `waitMs`: past it the caller gets 503 `provider_unavailable` while the import goes on
   * and stores its snapshot, so a retry finds it fresh.
   */
  async freshSnapshot(organizationId: string, profileUserId: string): Promise<ProfileSnapshot> {
    const authorization = await this.authorizations.find(organizationId, profileUserId);
    if (!authorization) throw notAuthorized();
    const snapshot = await this.snapshots.find(organizationId, profileUserId);
    return this.freshSnapshotGiven(organizationId, profileUserId, authorization.authorizedAt, snapshot);
  }

  /** freshSnapshot when the caller already read the authorization's time and the stored snapshot. */
  async freshSnapshotGiven(organizationId: string, profileUserId: string, authorizedAt: Date, snapshot: ProfileSnapshot | undefined): Promise<ProfileSnapshot> {
    if (isSnapshotFresh(snapshot, authorizedAt, this.clock.now())) return snapshot;
    const importing = this.import(organizationId, profileUserId);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(upstream('provider_unavailable', 'The profile provider is slow to answer; no application was created. Try again in a moment')),
        this.waitMs,
      );
    });
    // Finishing after the deadline is fine; failing then is the import job's business.
    importing.catch(() => undefined);
    try {
      return await Promise.race([importing, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async fetchWithRefresh(authorization: CandidateAuthorization): Promise<ProviderProfile> {
    // A token known to have expired is refreshed before use rather than sent to fail; one
    // that expires on the way gets the provider's 401 and is refreshed then.
    const expiresAt = authorization.accessTokenExpiresAt?.getTime();
    if (expiresAt !== undefined && expiresAt <= this.clock.now().getTime()) {
      return this.fetchOrExplain((await this.refresher.refresh(authorization)).accessToken);
    }
    try {
      return await this.provider.fetchProfile(authorization.accessToken);
    } catch (error) {
      if (!(error instanceof ProviderAuthorizationError)) throw error;
    }
    return this.fetchOrExplain((await this.refresher.refresh(authorization)).accessToken);
  }

  /** A freshly issued token that is rejected again is the provider's fault, not the candidate's. */
  private async fetchOrExplain(accessToken: string): Promise<ProviderProfile> {
    try {
      return await this.provider.fetchProfile(accessToken);
    } catch (error) {
      if (error instanceof ProviderAuthorizationError) {
        throw upstream('provider_error', 'The profile provider rejected a freshly refreshed token', { status: 502 });
      }
      throw error;
    }
  }
}
