/**
 * Erasure (GDPR Art. 17) as a resumable job: every registered store in turn runs its
 * `beforeErase` (revoking provider tokens) and `erase`, and its row count is recorded as
 * it finishes, so a job that dies halfway resumes at the first store not done (each
 * store's erase is idempotent as well, so the one in flight at the crash simply runs
 * again). The last step forgets the subject and records `candidate.erased` in one
 * transaction: the host and webhook receivers erase their copies on it.
 */
import { inject, injectable } from 'tsyringe';
import { eventMessage } from '../../../kernel/outbox';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { conflict, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { LOGGER, type Logger } from '../../../kernel/logger';
import type { CandidateSubject } from './candidate-data';
import type { CandidateDataRegistry } from './candidate-data-registry';
import type { PrivacyKeys } from './privacy-keys';
import { PRIVACY_QUEUE, PRIVACY_REQUEST_REPOSITORY, type CandidateErasure, type ErasureReason, type PrivacyRequestRepository } from './privacy-requests';
import { CANDIDATE_DATA_REGISTRY, PRIVACY_KEYS } from './tokens';

export const CANDIDATE_ERASED_EVENT = 'candidate.erased';

export const erasureJobId = (erasureId: string) => `erasure-${erasureId}`;

export const legalHoldBlocks = (holdId: string) =>
  conflict('legal_hold', `A legal hold (${holdId}) is placed on this candidate: release it before erasing their data`);

@injectable()
export class CandidateErasureService {
  constructor(
    @inject(PRIVACY_REQUEST_REPOSITORY) private readonly requests: PrivacyRequestRepository,
    @inject(CANDIDATE_DATA_REGISTRY) private readonly registry: CandidateDataRegistry,
    @inject(PRIVACY_KEYS) private readonly keys: PrivacyKeys,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Starts an erasure, or joins the one already running for the candidate. A candidate the
   * organization holds nothing about is erased all the same (nothing to do, and the host
   * still hears candidate.erased): that makes a repeated request harmless.
   */
  async request(subject: CandidateSubject, reason: ErasureReason = 'request'): Promise<{ erasure: CandidateErasure; joined: boolean }> {
    const hold = await this.requests.activeHold(subject.organizationId, subject.profileUserId);
    if (hold) throw legalHoldBlocks(hold.id);
    const record: CandidateErasure = {
      id: newId('cer'),
      organizationId: subject.organizationId,
      subjectDigest: this.keys.subjectDigest(subject.organizationId, subject.profileUserId),
      subject,
      reason,
      status: 'pending',
      progress: {},
      attempts: 0,
      lastError: null,
      createdAt: this.clock.now(),
      completedAt: null,
    };
    const stored = await this.requests.createErasure(record, (s) => [
      { queue: PRIVACY_QUEUE, name: 'erasure', data: { erasure_id: s.id }, jobId: erasureJobId(s.id) },
    ]);
    return { erasure: stored, joined: stored.id !== record.id };
  }

  async get(organizationId: string, erasureId: string): Promise<CandidateErasure> {
    const found = await this.requests.findErasure(organizationId, erasureId);
    if (!found) throw notFound('erasure', erasureId);
    return found;
  }

  /** The job. Safe to run any number of times, concurrently with itself too (each step is idempotent). */
  async run(erasureId: string): Promise<'erased' | 'done' | 'missing'> {
    const erasure = await this.requests.findErasureById(erasureId);
    if (!erasure) return 'missing';
    if (erasure.status !== 'pending' || !erasure.subject) return 'done';
    const subject = erasure.subject;
    try {
      for (const store of this.registry.stores) {
        if (store.name in erasure.progress) continue;
        await store.beforeErase?.(subject);
        const { erased } = await store.erase(subject);
        await this.requests.recordErasureProgress(erasureId, store.name, erased);
        erasure.progress[store.name] = erased;
      }
    } catch (error) {
      await this.requests.recordErasureFailure(erasureId, (error as Error).message.slice(0, 500)).catch(() => undefined);
      throw error;
    }
    const at = this.clock.now();
    // The one place the id survives the erasure: receivers need it to find their copies; it expires with the event log.
    const data = {
      erasure_id: erasureId,
      profile_user_id: subject.profileUserId,
      reason: erasure.reason,
      erased_at: at.toISOString(),
      stores: erasure.progress,
    };
    const dedupeKey = `${CANDIDATE_ERASED_EVENT}:${erasureId}`;
    await this.requests.completeErasure(erasureId, at, [
      eventMessage({ organizationId: subject.organizationId, type: CANDIDATE_ERASED_EVENT, data, dedupeKey }),
    ]);
    // Recorded with the completion (webhooks); this tells the host's hook bus (the log write is a no-op by the key).
    await this.events
      .publish(CANDIDATE_ERASED_EVENT, subject.organizationId, data, { dedupeKey })
      .catch((error: Error) => this.logger.warn({ erasureId, err: error.message }, 'announcing candidate.erased to the host failed'));
    this.logger.info({ organizationId: subject.organizationId, erasureId, stores: erasure.progress }, 'candidate data erased');
    return 'erased';
  }
}
