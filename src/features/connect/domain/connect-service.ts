/**
 * The connect flow's decisions, apart from the OAuth mechanics (grant, in http/connect):
 * whether a popup may start for (organization, listing, origin), and what happens once
 * the provider has granted tokens: identify the candidate, store the authorization with
 * its import job in one transaction, issue a candidate session.
 */
import { inject, injectable } from 'tsyringe';
import { ProfileApplyAvailability, type Availability } from '../../applications/domain/profile-apply-availability';
import { APPLICATION_REPOSITORY, type ApplicationRepository } from '../../applications/domain/ports';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '../../../kernel/outbox';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../../listings/domain/listing';
import { isListingId } from '../../listings/domain/listing-id';
import { ORGANIZATION_REPOSITORY, type OrganizationRepository } from '../../organizations/domain/ports';
import { CANDIDATE_AUTHORIZATION_REPOSITORY, type CandidateAuthorizationRepository } from '../../profiles/domain/candidate-authorization';
import { profileImportMessage } from '../../profiles/domain/profile-import';
import { PROFILE_PROVIDER, type ProfileProvider } from '../../profiles/domain/profile-provider';
import type { ProviderProfile, ProviderTokens } from '../../profiles/domain/provider-profile';
import { isOriginAllowed, isReturnUrlRegistered } from '../../applications/domain/profile-apply-settings';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { hasPrefix } from '../../../kernel/ids';
import { CANDIDATE_SESSIONS, type CandidateSessions, type IssuedCandidateSession } from './candidate-session';
import { PROVIDER_FAILURE_MESSAGES, providerFailureCode } from './provider-failure';

export type ConnectErrorCode =
  | 'payment_required'
  | 'consent_denied'
  | 'state_mismatch'
  | 'provider_error'
  | 'provider_unavailable'
  | 'provider_client_rejected'
  | 'origin_not_allowed'
  | 'listing_unavailable'
  | 'integration_disabled'
  | 'license_required'
  | 'invalid_return_to'
  | 'rate_limited';

export interface ConnectContext {
  organizationId: string;
  listingId: string;
  /** The listing page's origin: the only target the popup posts its result to. */
  origin: string;
  /** Redirect mode (the browser blocked the popup): the result goes back to this page instead. */
  returnTo?: ReturnTo;
}

/** A listing page on the flow's origin, and the nonce its widget keeps to recognize the answer. */
export interface ReturnTo {
  url: string;
  clientState: string;
}

const CLIENT_STATE = /^[A-Za-z0-9_-]{16,128}$/;

/** `return_to` must be an http(s) page on exactly the flow's origin; its fragment is dropped. */
export function parseReturnTo(url: string | undefined, clientState: string | undefined, origin: string): ReturnTo | undefined {
  if (!url || !clientState || !CLIENT_STATE.test(clientState)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin || parsed.username || parsed.password) return undefined;
  parsed.hash = '';
  return { url: parsed.toString(), clientState };
}

/** Who asks, for what: the provider's consent page may show it (the sandbox does). */
export interface ConnectRequestDescription {
  organizationName: string;
  listingTitle: string;
}

export type StartDecision =
  | { allowed: true; context: ConnectContext }
  /** `postTo` is set only when the origin is trusted; otherwise nobody hears about it. */
  | { allowed: false; code: ConnectErrorCode; message: string; postTo?: string; returnTo?: ReturnTo };

export interface ConnectResult {
  session: IssuedCandidateSession;
  profile: ProviderProfile;
  /** The candidate's earlier application to this listing, so the widget says so before showing a form. */
  alreadyApplied?: { applicationId: string; appliedAt: Date };
}

export class ConnectFailure extends Error {
  constructor(
    readonly code: ConnectErrorCode,
    message: string,
    /** false: the page's origin is no longer trusted, so the result is not posted to it. */
    readonly postable = true,
  ) {
    super(message);
    this.name = 'ConnectFailure';
  }
}

@injectable()
export class ConnectService {
  constructor(
    @inject(ProfileApplyAvailability) private readonly availability: ProfileApplyAvailability,
    @inject(LISTINGS_DIRECTORY) private readonly listings: ListingsDirectory,
    @inject(PROFILE_PROVIDER) private readonly provider: ProfileProvider,
    @inject(CANDIDATE_AUTHORIZATION_REPOSITORY) private readonly authorizations: CandidateAuthorizationRepository,
    @inject(APPLICATION_REPOSITORY) private readonly applications: ApplicationRepository,
    @inject(CANDIDATE_SESSIONS) private readonly sessions: CandidateSessions,
    @inject(OUTBOX_NOTIFIER) private readonly outbox: OutboxNotifier,
    @inject(ORGANIZATION_REPOSITORY) private readonly organizations: OrganizationRepository,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * `startedFrom`: in redirect mode, the `Origin` header of the POST that started the flow
   * (a browser sets it; a link cannot), which must be the flow's origin.
   */
  async decideStart(input: {
    organizationId?: string;
    listingId?: string;
    origin?: string;
    returnTo?: string;
    clientState?: string;
    startedFrom?: string;
  }): Promise<StartDecision> {
    const availability = hasPrefix(input.organizationId, 'org') ? await this.availability.check(input.organizationId) : undefined;
    const settings = availability?.settings;
    if (!availability || !settings || !isOriginAllowed(settings, input.origin)) {
      return { allowed: false, code: 'origin_not_allowed', message: 'This page is not allowed to start a profile application for this organization' };
    }
    const origin = input.origin!;
    const redirectMode = input.returnTo !== undefined || input.clientState !== undefined;
    const returnTo = redirectMode ? parseReturnTo(input.returnTo, input.clientState, origin) : undefined;
    if (redirectMode && !returnTo) {
      return { allowed: false, code: 'invalid_return_to', message: 'return_to must be a page on the origin that starts the flow, sent with a client_state' };
    }
    // Redirect mode hands the result to whatever page return_to names: only a page the
    // organization registered, and only when the listing page itself started the flow.
    if (returnTo && (input.startedFrom !== origin || !isReturnUrlRegistered(settings, returnTo.url))) {
      return {
        allowed: false,
        code: 'invalid_return_to',
        message: 'Redirect mode starts from the widget on a listing page whose URL the organization registered (profile_apply.return_urls)',
      };
    }
    const problem = await this.listingProblem(settings.organizationId, availability, input.listingId);
    if (problem) return { allowed: false, ...problem, postTo: origin, returnTo };
    return { allowed: true, context: { organizationId: settings.organizationId, listingId: input.listingId!, origin, ...(returnTo ? { returnTo } : {}) } };
  }

  /** After the provider granted tokens. Throws ConnectFailure with the code to post. */
  async complete(context: ConnectContext, tokens: ProviderTokens): Promise<ConnectResult> {
    // The organization may have removed the page's origin while the candidate was consenting.
    const availability = await this.availability.check(context.organizationId);
    if (!availability.settings || !isOriginAllowed(availability.settings, context.origin)) {
      throw new ConnectFailure('origin_not_allowed', 'This page is no longer allowed to take profile applications for this organization', false);
    }
    const problem = await this.listingProblem(context.organizationId, availability, context.listingId);
    if (problem) throw new ConnectFailure(problem.code, problem.message);
    let profile: ProviderProfile;
    try {
      profile = await this.provider.fetchProfile(tokens.accessToken);
    } catch (error) {
      const code = providerFailureCode(error);
      throw new ConnectFailure(code, PROVIDER_FAILURE_MESSAGES[code]);
    }
    const now = this.clock.now();
    await this.authorizations.save(
      {
        organizationId: context.organizationId,
        profileUserId: profile.id,
        listingId: context.listingId,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken ?? null,
        accessTokenExpiresAt: tokens.expiresAt ?? null,
        authorizedAt: now,
      },
      (stored) => [profileImportMessage(stored)],
    );
    this.outbox.nudge();
    const session = this.sessions.issue({ organizationId: context.organizationId, listingId: context.listingId, profileUserId: profile.id });
    const existing = await this.applications.findExisting(context.organizationId, context.listingId, profile.id);
    return { session, profile, ...(existing ? { alreadyApplied: { applicationId: existing.id, appliedAt: existing.createdAt } } : {}) };
  }

  /** Redirect mode: the session for a result the widget exchanged its code for (issued then, never stored). */
  issueSession(binding: { organizationId: string; listingId: string; profileUserId: string }): IssuedCandidateSession {
    return this.sessions.issue(binding);
  }

  /** Why the flow cannot go on for this (organization, listing), given the organization's availability. */
  private async listingProblem(
    organizationId: string,
    availability: Availability,
    listingId: string | undefined,
  ): Promise<{ code: ConnectErrorCode; message: string } | undefined> {
    if (!availability.accepting) return { code: availability.reason.code, message: 'This organization does not take profile applications right now' };
    const listing = isListingId(listingId) ? await this.listings.get(listingId) : undefined;
    if (!listing || listing.organizationId !== organizationId) return { code: 'listing_unavailable', message: 'This listing does not exist' };
    if (listing.status !== 'open') return { code: 'listing_unavailable', message: 'This listing no longer accepts applications' };
    return undefined;
  }

  /** The names a consent page may show: the organization's, and the listing's title. */
  async describe({ organizationId, listingId }: ConnectContext): Promise<ConnectRequestDescription> {
    const [organization, listing] = await Promise.all([this.organizations.findById(organizationId), this.listings.get(listingId)]);
    return { organizationName: organization?.name ?? '', listingTitle: listing?.title ?? '' };
  }
}
