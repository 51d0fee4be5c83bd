/**
 * A background check ordered from the organization's vendor for one host check: who (the
 * candidate's email, which the vendor's invitation goes to), what (the package, the purpose),
 * the vendor's ids, the report as last heard, the requirement outcomes it decides, post-hire
 * monitoring and the FCRA adverse action.
 */
import type { VendorReportStatus } from '../../hooks/domain/connectors';
import type { AdverseAction } from './adverse-action';

export const RUN_CHECK_ACTION = 'background_checks.run_check';
export const ROUTE_VERIFICATION_ACTION = 'background_checks.route_verification';
export const CONTINUOUS_MONITORING_ACTION = 'background_checks.continuous_monitoring';

export type BackgroundCheckAction = typeof RUN_CHECK_ACTION | typeof ROUTE_VERIFICATION_ACTION;

/** `standard`: a background check; `driver`: a gig driver's motor-vehicle record and driver's license. */
export type CheckPurpose = 'standard' | 'driver';

/** `invited` until the candidate finished the vendor's consent flow and a report exists. */
export type ReportState = 'invited' | VendorReportStatus;

export interface BackgroundCheck {
  id: string;
  organizationId: string;
  action: BackgroundCheckAction;
  hostCheckId: string;
  candidateId: string;
  listingId: string | null;
  purpose: CheckPurpose;
  candidateEmail: string;
  candidateName: string | null;
  packageSlug: string;
  connector: string;
  runId: string | null;
  livemode: boolean;
  vendorCandidateId: string;
  invitationId: string;
  invitationUrl: string | null;
  reportId: string | null;
  reportStatus: ReportState;
  reportResult: 'clear' | 'consider' | null;
  requirements: VendorRequirementOutcome[];
  /** `pending` while the vendor works, then `met` or `not_met`. */
  status: 'pending' | 'met' | 'not_met';
  monitoring: { id: string; type: 'criminal' | 'mvr'; lastReportId: string | null; lastResult: 'clear' | 'consider' | null } | null;
  adverseAction: AdverseAction;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * One requirement the vendor decides, in the credential checks' shape (`credential_check.completed`):
 * `pending` while the vendor works, then `met` or `unverified` with its reason.
 */
export interface VendorRequirementOutcome {
  requirement: string;
  status: 'pending' | 'met' | 'unverified';
  reason: string | null;
  evidence: {
    source: 'background_check';
    /** The vendor's report (or motor-vehicle record) id. */
    credential_id: string;
    /** The vendor connector (`checkr`). */
    issuer: string;
    types: string[];
    valid_from: string | null;
    valid_until: string | null;
    verification: 'verified';
    /** What the reason rests on (a violation's description), never more of the report. */
    detail?: string;
  } | null;
}

export type NewBackgroundCheck = Omit<BackgroundCheck, 'updatedAt'>;

export interface BackgroundCheckRepository {
  /** Inserts it unless the (organization, action, host check) exists; answers the stored one either way. */
  create(check: NewBackgroundCheck): Promise<BackgroundCheck>;
  find(organizationId: string, action: string, hostCheckId: string): Promise<BackgroundCheck | undefined>;
  /** The organization's checks of these host check ids, any action (one query for a page of applications). */
  findMany(organizationId: string, hostCheckIds: readonly string[]): Promise<BackgroundCheck[]>;
  get(organizationId: string, id: string): Promise<BackgroundCheck | undefined>;
  list(organizationId: string, filter: { candidateId?: string; limit: number }): Promise<BackgroundCheck[]>;
  /** The organization's checks of one vendor candidate, newest first. */
  ofVendorCandidate(organizationId: string, vendorCandidateId: string): Promise<BackgroundCheck[]>;
  /**
   * Writes the changed fields; with `expectedStage`, only if the adverse action is still at
   * that stage (two reviewers at once: the first wins). Answers false when nothing was written.
   */
  save(check: BackgroundCheck, expectedStage?: string): Promise<boolean>;
  /** Whether the vendor event was seen before (replays); records it when `record` is set. */
  seenEvent(organizationId: string, eventId: string): Promise<boolean>;
  recordEvent(organizationId: string, eventId: string, type: string, at: Date): Promise<void>;
}

export const BACKGROUND_CHECK_REPOSITORY = Symbol('BackgroundCheckRepository');
