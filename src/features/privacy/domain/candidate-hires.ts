/**
 * Hires, as the organization reports them: an application that led to a hire keeps the
 * candidate out of the applications retention rule (the "unless hired"; the hired
 * candidate's records are the employer's, under its own rules). The plugin does not see the
 * host's pipeline decisions, so the host tells it (POST /v1/candidates/{id}/hires).
 */
import { inject, injectable } from 'tsyringe';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';

export interface CandidateHire {
  id: string;
  organizationId: string;
  profileUserId: string;
  applicationId: string;
  listingId: string;
  hiredAt: Date;
  createdAt: Date;
}

export interface CandidateHireRepository {
  /** Records the hire of one of the candidate's applications (again: the first record); undefined when no such application. */
  record(hire: Omit<CandidateHire, 'listingId'>): Promise<CandidateHire | undefined>;
  list(organizationId: string, profileUserId: string): Promise<CandidateHire[]>;
}

export const CANDIDATE_HIRE_REPOSITORY = Symbol('CandidateHireRepository');

@injectable()
export class CandidateHireService {
  constructor(
    @inject(CANDIDATE_HIRE_REPOSITORY) private readonly hires: CandidateHireRepository,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async record(organizationId: string, profileUserId: string, applicationId: string, hiredAt?: Date): Promise<CandidateHire> {
    const now = this.clock.now();
    const hire = await this.hires.record({ id: newId('hire'), organizationId, profileUserId, applicationId, hiredAt: hiredAt ?? now, createdAt: now });
    // The id is not echoed: it came in the body, and may be another organization's.
    if (!hire) throw notFound('application');
    return hire;
  }

  list(organizationId: string, profileUserId: string): Promise<CandidateHire[]> {
    return this.hires.list(organizationId, profileUserId);
  }
}
