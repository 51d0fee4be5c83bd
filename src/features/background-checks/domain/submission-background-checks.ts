/**
 * Background checks ordered when an application arrives, from its listing's policy
 * (docs/credentials.md): the pipeline delivery enqueues one order job per application (job id
 * `bgc-submission-<application>`), the job orders through BackgroundCheckService (the same
 * vendor steps and action run as the `background_check.requested` hook, the application id as
 * the host check id, so a replayed job finds the stored check and orders nothing twice), and
 * the application's credential check shows the policy's requirements: `pending` until the
 * vendor's signed webhook decides them, `missing` with `contact_email_missing` when the
 * application gave no email (nothing is ordered). Organizations not holding the policy's
 * action (`run_check`, or `route_verification` for a driver) get no order and no outcomes.
 * An order the vendor refused (its action run `failed`) reads `unverified` with
 * `vendor_order_failed` and the run as evidence, and `credential_check.completed` says so once
 * per run; retrying the run (POST /v1/integrations/runs/{id}/retry, SubmissionOrderReplayer)
 * makes it `pending` again until the vendor decides.
 */
import { isDomainError } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import type { JobQueue } from '../../../kernel/job-queue';
import { runEventPayload } from '../../action-runs/domain/action-runner';
import type { ActionRun } from '../../action-runs/domain/action-run';
import type { Entitlements } from '../../licensing/domain/entitlements';
import type { BackgroundCheckPolicy, ListingBackgroundCheckPolicies } from '../../listings/domain/background-check-policy';
import type { ProfileApplication } from '../../applications/domain/application';
import type { SubmissionFollowUps } from '../../applications/domain/submission-follow-ups';
import type { RequirementOutcome } from '../../credential-checks/domain/match-requirements';
import type { VendorCheckedApplication, VendorCheckOutcomes } from '../../credential-checks/domain/vendor-check-outcomes';
import {
  RUN_CHECK_ACTION,
  ROUTE_VERIFICATION_ACTION,
  type BackgroundCheck,
  type BackgroundCheckAction,
  type BackgroundCheckRepository,
} from './background-check';
import { orderIdempotencyKey, REQUIREMENT_KEYS, type BackgroundCheckService } from './background-check-service';

/** An order's action run that failed for good (or until the organization retries it). */
export interface FailedOrderRun {
  idempotencyKey: string;
  runId: string;
  connector: string;
  errorCode: string | null;
}

/** Reads the failed order runs among these idempotency keys. */
export type FailedOrderRuns = (organizationId: string, idempotencyKeys: readonly string[]) => Promise<FailedOrderRun[]>;

/** What an application's check shows of a failed order. */
export type OrderFailure = Pick<FailedOrderRun, 'runId' | 'connector' | 'errorCode'>;

/**
 * The failed orders, one per application: kept while the application is (the run itself is
 * pruned after ACTION_RUN_FAILED_RETENTION_DAYS), so its check never falls back to `pending`.
 */
export interface OrderFailures {
  /** Records (or replaces) the application's failed order. */
  record(organizationId: string, applicationId: string, action: string, run: FailedOrderRun, at: Date): Promise<void>;
  /** These applications' standing failures (their run failed, or was pruned since; not while it is retried), by application id. */
  of(organizationId: string, applicationIds: readonly string[]): Promise<Map<string, { action: string; run: OrderFailure }>>;
}

const REQUIREMENT_TYPES: Record<string, string> = {
  background_check: 'BackgroundCheck',
  driver_license: 'DriverLicense',
  motor_vehicle_record: 'MotorVehicleRecord',
};

/** The outcomes of a refused order: `unverified`, `vendor_order_failed`, the run as evidence. */
export const failedOrderOutcomes = (keys: readonly string[], run: OrderFailure): RequirementOutcome[] =>
  keys.map((requirement) => ({
    requirement,
    status: 'unverified',
    reason: 'vendor_order_failed',
    evidence: {
      source: 'background_check',
      credential_id: null,
      issuer: run.connector,
      types: [REQUIREMENT_TYPES[requirement] ?? 'BackgroundCheck'],
      valid_from: null,
      valid_until: null,
      verification: 'unverified',
      ...(run.errorCode ? { detail: run.errorCode } : {}),
      run_id: run.runId,
    },
  }));

export const SUBMISSION_CHECKS_QUEUE = 'background-check-orders';

export interface SubmissionCheckJob {
  organization_id: string;
  application_id: string;
}

export const submissionCheckJobId = (applicationId: string) => `bgc-submission-${applicationId}`;

export type SubmissionOrderOutcome =
  | { ordered: true; backgroundCheckId: string; status: BackgroundCheck['status'] }
  | { ordered: false; reason: 'application_missing' | 'no_policy' | 'not_licensed' | 'contact_email_missing' };

export const policyAction = (policy: BackgroundCheckPolicy): BackgroundCheckAction =>
  policy.purpose === 'driver' ? ROUTE_VERIFICATION_ACTION : RUN_CHECK_ACTION;

/** "Ada King Lovelace" → Ada / King Lovelace; a single word is a first name only. */
function nameParts(name: string): { firstName?: string; lastName?: string } {
  const [first, ...rest] = name.trim().split(/\s+/);
  return { ...(first ? { firstName: first.slice(0, 100) } : {}), ...(rest.length > 0 ? { lastName: rest.join(' ').slice(0, 100) } : {}) };
}

export class SubmissionBackgroundChecks implements SubmissionFollowUps, VendorCheckOutcomes {
  constructor(
    private readonly deps: {
      policies: ListingBackgroundCheckPolicies;
      entitlements: Entitlements;
      queue: () => JobQueue;
      service: () => BackgroundCheckService;
      checks: BackgroundCheckRepository;
      application: (applicationId: string) => Promise<ProfileApplication | undefined>;
      failedOrders: FailedOrderRuns;
      failures: OrderFailures;
      now: () => Date;
      /** Fails the order's run left `retrying` when its job gave up; answers it then. */
      exhaustRun: (organizationId: string, idempotencyKey: string) => Promise<ActionRun | undefined>;
      events: EventPublisher;
    },
  ) {}

  /** From the pipeline delivery: enqueues the order when the listing has a policy (never orders inside the delivery). */
  async submitted(application: ProfileApplication): Promise<void> {
    const policy = await this.deps.policies.get(application.organizationId, application.listingId);
    if (!policy) return;
    const job: SubmissionCheckJob = { organization_id: application.organizationId, application_id: application.id };
    await this.deps.queue().add(SUBMISSION_CHECKS_QUEUE, 'order', job, { jobId: submissionCheckJobId(application.id) });
  }

  /**
   * The job: orders the check the listing's policy asks for, once per application. `lastAttempt`:
   * the job's final try, after which a vendor outage fails the run instead of leaving it `retrying`.
   */
  async order(organizationId: string, applicationId: string, lastAttempt = false): Promise<SubmissionOrderOutcome> {
    const application = await this.deps.application(applicationId);
    if (!application || application.organizationId !== organizationId) return { ordered: false, reason: 'application_missing' };
    const policy = await this.deps.policies.get(organizationId, application.listingId);
    if (!policy) return { ordered: false, reason: 'no_policy' };
    const action = policyAction(policy);
    if (!(await this.deps.entitlements.isActive(organizationId, action))) return { ordered: false, reason: 'not_licensed' };
    if (!application.contact) return { ordered: false, reason: 'contact_email_missing' };
    let check: BackgroundCheck;
    try {
      check = await this.deps.service().order(organizationId, {
        action,
        hostCheckId: application.id,
        candidateId: application.profileUserId,
        listingId: application.listingId,
        purpose: policy.purpose,
        email: application.contact.email,
        ...nameParts(application.candidateName),
        packageSlug: policy.package,
        workLocation: policy.work_location,
      });
    } catch (error) {
      // Refused for good (a vendor outage retries): the application's check says so, once per run.
      if (isDomainError(error) && error.kind !== 'upstream') await this.announceFailure(application, policy, action);
      else if (isDomainError(error) && lastAttempt) await this.exhaust(application, policy, action);
      throw error;
    }
    return { ordered: true, backgroundCheckId: check.id, status: check.status };
  }

  /** The vendor stayed out of reach through every retry: the run fails (action_run.failed), and the check says so. */
  private async exhaust(application: ProfileApplication, policy: BackgroundCheckPolicy, action: BackgroundCheckAction): Promise<void> {
    const run = await this.deps.exhaustRun(application.organizationId, orderIdempotencyKey(application.organizationId, action, application.id));
    if (!run) return;
    await this.deps.events.publish('action_run.failed', run.organizationId, runEventPayload(run), { dedupeKey: `action_run.failed:${run.id}` });
    await this.announceFailure(application, policy, action);
  }

  private async announceFailure(application: ProfileApplication, policy: BackgroundCheckPolicy, action: BackgroundCheckAction): Promise<void> {
    const key = orderIdempotencyKey(application.organizationId, action, application.id);
    const [run] = await this.deps.failedOrders(application.organizationId, [key]);
    if (!run) return;
    await this.deps.failures.record(application.organizationId, application.id, action, run, this.deps.now());
    await this.deps.events.publish(
      'credential_check.completed',
      application.organizationId,
      {
        action,
        check_id: application.id,
        listing_id: application.listingId,
        candidate_id: application.profileUserId,
        status: 'not_met',
        requirements: failedOrderOutcomes(REQUIREMENT_KEYS[policy.purpose], run),
        run_id: run.runId,
      },
      { dedupeKey: `credential_check.completed:order_failed:${application.organizationId}:${run.runId}` },
    );
  }

  async of(organizationId: string, applications: VendorCheckedApplication[]): Promise<Map<string, RequirementOutcome[]>> {
    const results = new Map<string, RequirementOutcome[]>();
    const policies = await this.deps.policies.getMany(organizationId, [...new Set(applications.map((a) => a.listingId))]);
    if (policies.size === 0) return results;
    const held = new Map<BackgroundCheckAction, boolean>();
    for (const policy of policies.values()) {
      const action = policyAction(policy);
      if (!held.has(action)) held.set(action, await this.deps.entitlements.isActive(organizationId, action));
    }
    const covered = applications.filter((a) => {
      const policy = policies.get(a.listingId);
      return policy !== undefined && held.get(policyAction(policy));
    });
    // One query for the page: the checks stored under these applications' ids.
    const stored = await this.deps.checks.findMany(
      organizationId,
      covered.map((a) => a.id),
    );
    // And the failed orders of those without a check (a refused order stores none).
    const unordered = covered.filter((a) => a.contact && !stored.some((c) => c.hostCheckId === a.id));
    const failed = await this.deps.failures.of(
      organizationId,
      unordered.map((a) => a.id),
    );
    // A run that failed just now (or whose record a crash lost) says so before its record does.
    const unrecorded = unordered.filter((a) => !failed.has(a.id));
    const keyOf = (a: VendorCheckedApplication) => orderIdempotencyKey(organizationId, policyAction(policies.get(a.listingId)!), a.id);
    if (unrecorded.length > 0) {
      const runs = new Map((await this.deps.failedOrders(organizationId, unrecorded.map(keyOf))).map((run) => [run.idempotencyKey, run]));
      for (const a of unrecorded) {
        const run = runs.get(keyOf(a));
        if (run) failed.set(a.id, { action: policyAction(policies.get(a.listingId)!), run });
      }
    }
    for (const application of covered) {
      const policy = policies.get(application.listingId)!;
      const check = stored.find((c) => c.hostCheckId === application.id && c.action === policyAction(policy));
      const keys = REQUIREMENT_KEYS[policy.purpose];
      const refused = failed.get(application.id);
      if (check) results.set(application.id, check.requirements as RequirementOutcome[]);
      else if (refused && refused.action === policyAction(policy)) results.set(application.id, failedOrderOutcomes(keys, refused.run));
      else if (!application.contact)
        results.set(
          application.id,
          keys.map((requirement) => ({ requirement, status: 'missing', reason: 'contact_email_missing', evidence: null })),
        );
      // Being ordered (the job runs right after the delivery, or retries a vendor outage).
      else
        results.set(
          application.id,
          keys.map((requirement) => ({ requirement, status: 'pending', reason: null, evidence: null })),
        );
    }
    return results;
  }
}
