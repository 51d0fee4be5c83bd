/**
 * sourcing.source_candidates: talent rediscovery. The organization searches its talent pool
 * (past applicants who consented to be contacted again), ranked (candidate-ranking.ts), and
 * invites one to apply to an open listing: an email (an action run through the email
 * connection) with the listing page's link carrying a signed, single-use `source`. The
 * application that follows is attributed (`source: "sourcing"`, the invitation records it)
 * and sourcing.invitation_accepted is published. It also implements the apply path's
 * ApplicationSourcing port.
 */
import { conflict, DomainError, invalid, notFound } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import { newId } from '../../../kernel/ids';
import type { Logger } from '../../../kernel/logger';
import type { ApplicationRepository } from '../../applications/domain/ports';
import type { AppliedApplication, ApplicationSourcing, InvitationClaim, RecontactConsent } from '../../applications/domain/application-sourcing';
import { listingUrl } from '../../job-feeds/domain/job-posting';
import type { NotificationConnector } from '../../hooks/domain/connectors';
import type { Entitlements } from '../../licensing/domain/entitlements';
import type { ListingsDirectory } from '../../listings/domain/listing';
import { isListingId } from '../../listings/domain/listing-id';
import { checkedCredentialNames, rankCandidates, type RankedCandidate, type SourcingQuery } from './candidate-ranking';
import type { ApplicationCredentialChecker } from '../../applications/domain/application-credential-check';
import { INVITATION_TTL_MS, type Invitation, type InvitationRepository } from './invitation';
import { InvitationTokens } from './invitation-tokens';
import { SEARCH_SCAN_LIMIT, type TalentPoolRepository } from './talent-pool';
import { invitationEmail } from './invitation-email';
import type { SignedLinks } from '../../messages/domain/signed-links';

export const SOURCE_CANDIDATES = 'sourcing.source_candidates';
/** The `source` an invited application records. */
export const SOURCING_SOURCE = 'sourcing';

export interface SourcingDeps {
  pool: TalentPoolRepository;
  invitations: InvitationRepository;
  tokens: InvitationTokens;
  applications: Pick<ApplicationRepository, 'findExisting'>;
  /** Issue 25's automatic checks: what an application's credentials prove against its listing's requirements. */
  credentialChecks: ApplicationCredentialChecker;
  listings: ListingsDirectory;
  organizationName: (organizationId: string) => Promise<string>;
  email: NotificationConnector;
  entitlements: Entitlements;
  events: EventPublisher;
  logger: Logger;
  now: () => Date;
  /** JOB_FEEDS_LISTING_URL: the listing page the invitation links to. */
  listingUrlTemplate: string | undefined;
  /** Signs the invitation's opt-out link (messages' link key), served under `baseUrl`. */
  links: SignedLinks;
  baseUrl: string;
}

/** What a sourcing opt-out link points at. */
export interface OptOutTarget {
  invitation: Invitation;
  /** The address the consent gave (undefined once erased). */
  email: string | undefined;
  organizationName: string;
  withdrawn: boolean;
  /** The language the candidate applied in (kept with the consent): the page is written in it; null when none was given. */
  language: string | null;
}

export class SourcingService implements ApplicationSourcing {
  constructor(private readonly deps: SourcingDeps) {}

  async search(organizationId: string, query: SourcingQuery): Promise<RankedCandidate[]> {
    await this.deps.entitlements.requireActive(organizationId, SOURCE_CANDIDATES);
    const pool = await this.deps.pool.candidates(organizationId, SEARCH_SCAN_LIMIT);
    // Where the latest application has a credential check, it decides what is verified (one batch: requirements and documents in two queries).
    const checks = await this.deps.credentialChecks.checkAll(
      organizationId,
      pool.map((c) => ({
        id: c.lastApplicationId,
        listingId: c.lastListingId,
        importedCredentials: c.credentials.map(({ title, issuer }) => ({ title, issuer })),
      })),
    );
    const checked = pool.map((c) => {
      const check = checks.get(c.lastApplicationId);
      return check ? { ...c, checkedCredentials: checkedCredentialNames(check) } : c;
    });
    return rankCandidates(checked, query);
  }

  async invite(organizationId: string, input: { profileUserId: string; listingId: string; message?: string }): Promise<Invitation> {
    await this.deps.entitlements.requireActive(organizationId, SOURCE_CANDIDATES);
    const template = this.deps.listingUrlTemplate;
    if (!template) throw conflict('listing_page_missing', 'Invitations link to the listing page: set JOB_FEEDS_LISTING_URL');
    const listing = isListingId(input.listingId) ? await this.deps.listings.get(input.listingId) : undefined;
    if (!listing || listing.organizationId !== organizationId) throw notFound('listing', input.listingId);
    if (listing.status !== 'open') throw new DomainError('gone', 'listing_closed', 'This listing no longer accepts applications');
    const member = await this.deps.pool.active(organizationId, input.profileUserId);
    // Never consented, withdrew, or erased: not someone the organization may contact.
    if (!member) throw notFound('sourcing_candidate', input.profileUserId);
    const existing = await this.deps.applications.findExisting(organizationId, listing.id, input.profileUserId);
    if (existing) throw conflict('already_applied', 'This candidate has already applied to this listing', { application_id: existing.id });

    const now = this.deps.now();
    const invitation: Invitation = {
      id: newId('sinv'),
      organizationId,
      listingId: listing.id,
      profileUserId: input.profileUserId,
      runId: null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      usedAt: null,
      applicationId: null,
    };
    await this.deps.invitations.create(invitation);
    const link = new URL(listingUrl(template, organizationId, listing.id));
    link.searchParams.set(
      'source',
      this.deps.tokens.issue({ organizationId, listingId: listing.id, profileUserId: input.profileUserId, invitationId: invitation.id }),
    );
    let runId: string;
    try {
      const unsubscribeUrl = this.unsubscribeUrl(invitation);
      const message = invitationEmail({
        organizationName: await this.deps.organizationName(organizationId),
        listingTitle: listing.title,
        link: link.toString(),
        expiresAt: invitation.expiresAt,
        note: input.message,
        unsubscribeUrl,
        language: member.language,
      });
      const sent = await this.deps.email.sendEmail({
        organizationId,
        actionKey: SOURCE_CANDIDATES,
        idempotencyKey: `sourcing-invitation:${invitation.id}`,
        to: { name: '', email: member.email },
        ...message,
        // RFC 8058: mail clients offer "Unsubscribe" and POST `List-Unsubscribe=One-Click` to the link.
        headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
      runId = sent.deliveryId;
    } catch (error) {
      // Nothing reached the candidate: no invitation is left behind (the failed run is on record).
      await this.deps.invitations.delete(organizationId, invitation.id);
      throw error;
    }
    await this.deps.invitations.setRun(organizationId, invitation.id, runId);
    await this.announce(
      'sourcing.invitation_sent',
      organizationId,
      { invitation_id: invitation.id, listing_id: listing.id, profile_user_id: input.profileUserId, run_id: runId },
      invitation.id,
    );
    return { ...invitation, runId };
  }

  async invitation(organizationId: string, id: string): Promise<Invitation> {
    const found = await this.deps.invitations.find(organizationId, id);
    if (!found) throw notFound('sourcing_invitation', id);
    return found;
  }

  async withdraw(organizationId: string, profileUserId: string): Promise<void> {
    if (!(await this.deps.pool.withdraw(organizationId, profileUserId, this.deps.now()))) throw notFound('sourcing_candidate', profileUserId);
  }

  /** The opt-out link of an invitation: names the invitation (never the address), does not expire. */
  unsubscribeUrl(invitation: Pick<Invitation, 'organizationId' | 'id'>): string {
    const token = this.deps.links.sign({ p: 'sourcing_unsubscribe', o: invitation.organizationId, r: invitation.id });
    return `${this.deps.baseUrl.replace(/\/$/, '')}/v1/sourcing/unsubscribe?token=${token}`;
  }

  /** What an opt-out link points at: 400 link_invalid for a changed token, 404 once the invitation was erased. */
  async optOutTarget(token: string): Promise<OptOutTarget> {
    const claims = this.deps.links.verify(token, 'sourcing_unsubscribe', this.deps.now());
    const invitation = await this.deps.invitations.find(claims.o, claims.r);
    if (!invitation) throw new DomainError('not_found', 'link_not_found', 'Nothing is behind this link any more (the record was erased)');
    const member = await this.deps.pool.member(invitation.organizationId, invitation.profileUserId);
    return {
      invitation,
      email: member?.email,
      language: member?.language ?? null,
      organizationName: await this.deps.organizationName(invitation.organizationId),
      withdrawn: !member || member.withdrawnAt !== null,
    };
  }

  /** The one-click opt-out: the consent to be contacted again is withdrawn (again: nothing changes). */
  async optOut(token: string): Promise<OptOutTarget> {
    const target = await this.optOutTarget(token);
    if (!target.withdrawn) {
      await this.deps.pool.withdraw(target.invitation.organizationId, target.invitation.profileUserId, this.deps.now());
      await this.announce(
        'sourcing.consent_withdrawn',
        target.invitation.organizationId,
        { profile_user_id: target.invitation.profileUserId, invitation_id: target.invitation.id, via: 'unsubscribe_link' },
        target.invitation.id,
      );
    }
    return { ...target, withdrawn: true };
  }

  // ApplicationSourcing (the apply path).

  isInvitation(source: string): boolean {
    return InvitationTokens.looksLikeOne(source);
  }

  async claimInvitation(claim: InvitationClaim): Promise<string> {
    const invitationId = this.deps.tokens.invitationOf(claim, claim.token);
    if (!invitationId) throw invalid('source_invalid', 'source is not a tracked apply link of this listing', 'source');
    const outcome = await this.deps.invitations.claim({ ...claim, id: invitationId }, this.deps.now());
    if (outcome === 'used') throw conflict('invitation_used', 'This invitation was used already');
    if (outcome === 'expired') throw new DomainError('gone', 'invitation_expired', 'This invitation has expired');
    if (outcome === 'unknown') throw invalid('source_invalid', 'source is not a tracked apply link of this listing', 'source');
    return SOURCING_SOURCE;
  }

  releaseInvitation(organizationId: string, applicationId: string): Promise<void> {
    return this.deps.invitations.release(organizationId, applicationId);
  }

  async applied(application: AppliedApplication, invited: boolean, recontact: RecontactConsent | undefined): Promise<void> {
    if (recontact) {
      await this.deps.pool.consent({
        organizationId: application.organizationId,
        profileUserId: application.profileUserId,
        applicationId: application.applicationId,
        email: recontact.email,
        location: recontact.location,
        language: recontact.language ?? null,
        grantedAt: application.at,
      });
    }
    if (invited) {
      await this.announce(
        'sourcing.invitation_accepted',
        application.organizationId,
        { application_id: application.applicationId, listing_id: application.listingId, profile_user_id: application.profileUserId },
        application.applicationId,
      );
    }
  }

  private async announce(event: string, organizationId: string, payload: object, key: string): Promise<void> {
    try {
      await this.deps.events.publish(event, organizationId, payload, { dedupeKey: `${event}:${key}` });
    } catch (error) {
      // What happened is on record (the invitation, the application); only the notice failed.
      this.deps.logger.warn({ event, err: (error as Error).message }, 'publishing a sourcing event failed');
    }
  }
}
