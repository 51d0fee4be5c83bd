/**
 * The daily retention pass: finds the candidates whose data is due (retention.ts) and
 * starts an erasure for each (reason `retention`), which covers every registered store.
 * A candidate under a legal hold is skipped and counted. Safe on several processes at once:
 * a second erasure request for the same candidate joins the pending one. Then it prunes the
 * audit trail and the operational records (action runs, …) past their deployment's retention.
 */
import { inject, injectable } from 'tsyringe';
import { LISTINGS_DIRECTORY, type ListingsDirectory } from '../../listings/domain/listing';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { isDomainError } from '../../../kernel/errors';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { AUDIT_RETENTION, type AuditRetention } from '../../audit/domain/audit-retention';
import { CandidateErasureService } from './candidate-erasure-service';
import { OPERATIONAL_RETENTION, type OperationalRecordPruners } from './operational-retention';
import { allListingsExpired, RETENTION_DEFAULTS, RETENTION_REPOSITORY, type RetentionRepository, type RetentionRule } from './retention';

export interface RetentionReport {
  as_of: string;
  erasures_started: Record<RetentionRule, number>;
  held: number;
  /** Due by the applications rule, kept because an application led to a hire. */
  hired_kept: number;
  audit_events_pruned: number;
  /** Operational records past their deployment's retention, by kind (e.g. `action_runs`). */
  operational_records_pruned: Record<string, number>;
}

/** Counts what the pass did (Prometheus, by rule and outcome). */
export interface RetentionMetrics {
  record(rule: RetentionRule, outcome: 'erasure_started' | 'held' | 'hired'): void;
}

export const RETENTION_METRICS = Symbol('RetentionMetrics');

const BATCH = 1000;

@injectable()
export class RetentionSweep {
  constructor(
    @inject(RETENTION_REPOSITORY) private readonly retention: RetentionRepository,
    @inject(LISTINGS_DIRECTORY) private readonly listings: ListingsDirectory,
    @inject(CandidateErasureService) private readonly erasures: CandidateErasureService,
    @inject(RETENTION_METRICS) private readonly metrics: RetentionMetrics,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(AUDIT_RETENTION) private readonly auditRetention: AuditRetention,
    @inject(OPERATIONAL_RETENTION) private readonly operationalPruners: OperationalRecordPruners,
  ) {}

  /** `asOf`: the time the rules are applied at (a test clock outside production; now otherwise). */
  async run(asOf: Date = this.clock.now()): Promise<RetentionReport> {
    const report: RetentionReport = {
      as_of: asOf.toISOString(),
      erasures_started: { applications: 0, unfinished_authorizations: 0 },
      held: 0,
      hired_kept: 0,
      audit_events_pruned: 0,
      operational_records_pruned: {},
    };
    for (const candidate of await this.retention.unfinished(asOf, RETENTION_DEFAULTS.unfinishedAuthorizationsDays, BATCH)) {
      await this.erase(candidate, 'unfinished_authorizations', report);
    }
    for (const applicant of await this.retention.applicants(BATCH * 10)) {
      const listings = await Promise.all(applicant.listingIds.map((id) => this.listings.get(id)));
      if (!allListingsExpired(listings, applicant.applicationsDays ?? RETENTION_DEFAULTS.applicationsDays, asOf)) continue;
      // "Unless hired": a hire makes the candidate an employee, whose records the host keeps under its own rules.
      if (applicant.hired) {
        report.hired_kept += 1;
        this.metrics.record('applications', 'hired');
      } else await this.erase(applicant, 'applications', report);
    }
    report.audit_events_pruned = (await this.auditRetention.prune(asOf)).events;
    for (const pruner of this.operationalPruners()) report.operational_records_pruned[pruner.name] = await pruner.prune(asOf);
    this.logger.info({ retention: report }, 'retention pass done');
    return report;
  }

  private async erase(candidate: { organizationId: string; profileUserId: string }, rule: RetentionRule, report: RetentionReport): Promise<void> {
    try {
      await this.erasures.request({ ...candidate, emails: [], phones: [] }, 'retention');
      report.erasures_started[rule] += 1;
      this.metrics.record(rule, 'erasure_started');
    } catch (error) {
      if (!isDomainError(error) || error.code !== 'legal_hold') throw error;
      report.held += 1;
      this.metrics.record(rule, 'held');
    }
  }
}
