/** Legal holds: an organization keeps one candidate's data from erasure and retention, with a reason, until it releases the hold. */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import { PRIVACY_REQUEST_REPOSITORY, type LegalHold, type PrivacyRequestRepository } from './privacy-requests';

@injectable()
export class LegalHoldService {
  constructor(
    @inject(PRIVACY_REQUEST_REPOSITORY) private readonly requests: PrivacyRequestRepository,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async place(organizationId: string, profileUserId: string, reason: string): Promise<LegalHold> {
    const hold: LegalHold = { id: newId('hold'), organizationId, profileUserId, reason, createdAt: this.clock.now(), releasedAt: null };
    await this.requests.placeHold(hold);
    return hold;
  }

  async release(organizationId: string, profileUserId: string, holdId: string): Promise<LegalHold> {
    const released = await this.requests.releaseHold(organizationId, profileUserId, holdId, this.clock.now());
    if (!released) throw notFound('legal hold', holdId);
    return released;
  }

  list(organizationId: string, profileUserId: string): Promise<LegalHold[]> {
    return this.requests.listHolds(organizationId, profileUserId);
  }
}
