/**
 * The vendor side of the background-check actions:
 *  - `order`: creates the vendor's candidate and invitation (its hosted consent flow); the
 *    check's requirements are `pending` until the vendor's result arrives;
 *  - `monitor`: enrolls a hired person the vendor already screened in continuous monitoring;
 *  - `receive`: a signed vendor webhook (replay-safe by event id) moves the report; a
 *    completed one decides the requirements (`met`/`unverified` with the reason) and publishes
 *    `credential_check.completed`; a new report for a monitored person publishes
 *    `background_check.monitoring_alert`.
 */
import { conflict, invalid, isDomainError, notFound } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import { newId } from '../../../kernel/ids';
import type { VendorEvent, VendorReport, VendorReportStatus } from '../../hooks/domain/connectors';
import { NO_ADVERSE_ACTION } from './adverse-action';
import {
  CONTINUOUS_MONITORING_ACTION,
  ROUTE_VERIFICATION_ACTION,
  type BackgroundCheck,
  type BackgroundCheckAction,
  type BackgroundCheckRepository,
  type CheckPurpose,
  type VendorRequirementOutcome,
} from './background-check';
import { judgeDrivingRecord } from './driving-record-rules';
import type { VendorSteps } from './vendor-steps';

export const BACKGROUND_CHECK_REQUESTED_HOOK = 'background_check.requested';

/** The requirement keys a check decides, by purpose (a listing names them in its requirements). */
export const REQUIREMENT_KEYS: Record<CheckPurpose, readonly string[]> = {
  standard: ['background_check'],
  driver: ['driver_license', 'motor_vehicle_record'],
};

export interface CheckOrder {
  action: BackgroundCheckAction;
  hostCheckId: string;
  candidateId: string;
  listingId: string | null;
  purpose: CheckPurpose;
  email: string;
  firstName?: string;
  lastName?: string;
  packageSlug: string;
  workLocation: { country: string; state?: string; city?: string };
}

/** The idempotency key of an order's action run: one run per (organization, action, host check). */
export const orderIdempotencyKey = (organizationId: string, action: string, hostCheckId: string) => `bgc-order-${organizationId}-${action}-${hostCheckId}`;

const REPORT_EVENTS = new Set([
  'report.created',
  'report.completed',
  'report.upgraded',
  'report.suspended',
  'report.resumed',
  'report.disputed',
  'report.canceled',
]);
const pendingOutcome = (requirement: string): VendorRequirementOutcome => ({ requirement, status: 'pending', reason: null, evidence: null });

export class BackgroundCheckService {
  constructor(
    private readonly checks: BackgroundCheckRepository,
    private readonly vendor: VendorSteps,
    private readonly events: EventPublisher,
    private readonly now: () => Date,
  ) {}

  async order(organizationId: string, order: CheckOrder): Promise<BackgroundCheck> {
    const existing = await this.checks.find(organizationId, order.action, order.hostCheckId);
    if (existing) return existing;
    const ordered = await this.vendor.order(
      {
        organizationId,
        actionKey: order.action,
        idempotencyKey: orderIdempotencyKey(organizationId, order.action, order.hostCheckId),
        email: order.email,
        ...(order.firstName ? { firstName: order.firstName } : {}),
        ...(order.lastName ? { lastName: order.lastName } : {}),
        packageSlug: order.packageSlug,
        workLocation: order.workLocation,
      },
      BACKGROUND_CHECK_REQUESTED_HOOK,
    );
    const now = this.now();
    const name = [order.firstName, order.lastName].filter(Boolean).join(' ');
    return this.checks.create({
      id: newId('bgc'),
      organizationId,
      action: order.action,
      hostCheckId: order.hostCheckId,
      candidateId: order.candidateId,
      listingId: order.listingId,
      purpose: order.purpose,
      // Lower-cased: the privacy registry finds a person's rows by the emails the host knows them by.
      candidateEmail: order.email.toLowerCase(),
      candidateName: name || null,
      packageSlug: order.packageSlug,
      connector: ordered.connector,
      runId: ordered.runId,
      livemode: ordered.livemode,
      vendorCandidateId: ordered.vendorCandidateId,
      invitationId: ordered.invitationId,
      invitationUrl: ordered.invitationUrl,
      reportId: null,
      reportStatus: 'invited',
      reportResult: null,
      requirements: REQUIREMENT_KEYS[order.purpose].map(pendingOutcome),
      status: 'pending',
      monitoring: null,
      adverseAction: NO_ADVERSE_ACTION,
      completedAt: null,
      createdAt: now,
    });
  }

  /** Enrolls the hired candidate's newest vendor-screened check in continuous monitoring (once). */
  async monitor(organizationId: string, candidateId: string): Promise<BackgroundCheck> {
    const [check] = await this.checks.list(organizationId, { candidateId, limit: 1 });
    if (!check)
      throw conflict('background_check_missing', `No background check of candidate ${candidateId} to monitor: order one first (background_check.requested)`);
    if (check.monitoring) return check;
    const type = check.purpose === 'driver' ? 'mvr' : 'criminal';
    const enrolled = await this.vendor.enroll(
      {
        organizationId,
        actionKey: CONTINUOUS_MONITORING_ACTION,
        idempotencyKey: `bgc-monitor-${organizationId}-${check.id}`,
        vendorCandidateId: check.vendorCandidateId,
        type,
      },
      'candidate.hired',
    );
    const monitored: BackgroundCheck = {
      ...check,
      monitoring: { id: enrolled.subscriptionId, type, lastReportId: null, lastResult: null },
      updatedAt: this.now(),
    };
    await this.checks.save(monitored);
    return monitored;
  }

  async get(organizationId: string, id: string): Promise<BackgroundCheck> {
    const check = await this.checks.get(organizationId, id);
    if (!check) throw notFound('background check', id);
    return check;
  }

  list(organizationId: string, filter: { candidateId?: string; limit: number }): Promise<BackgroundCheck[]> {
    return this.checks.list(organizationId, filter);
  }

  /**
   * A vendor webhook for the organization: verified by its connection's key over the raw body
   * (`webhook_signature_invalid` otherwise), then applied once per event id.
   */
  async receive(
    organizationId: string,
    rawBody: Buffer,
    signature: string | undefined,
  ): Promise<{ event_id: string; type: string; duplicate: boolean; applied: boolean }> {
    let vendor;
    try {
      vendor = await this.vendor.port(organizationId, 'background_checks.run_check');
    } catch (error) {
      // No connection (or an unknown organization): nothing can verify it, and nobody learns which.
      if (isDomainError(error) && error.code === 'connection_missing') throw invalid('webhook_signature_invalid', 'The webhook signature did not verify');
      throw error;
    }
    const verified: VendorEvent = vendor.port.verifyWebhook(rawBody, signature);
    if (await this.checks.seenEvent(organizationId, verified.id)) return { event_id: verified.id, type: verified.type, duplicate: true, applied: false };
    const applied = await this.apply(organizationId, verified, vendor.port, vendor.connector);
    // Recorded after it was applied: a delivery that failed half-way is applied again on the vendor's retry.
    await this.checks.recordEvent(organizationId, verified.id, verified.type.slice(0, 100), this.now());
    return { event_id: verified.id, type: verified.type, duplicate: false, applied };
  }

  private async apply(organizationId: string, event: VendorEvent, port: Awaited<ReturnType<VendorSteps['port']>>['port'], connector: string): Promise<boolean> {
    const object = event.object;
    const candidateOf = typeof object.candidate_id === 'string' ? object.candidate_id : null;
    if (!candidateOf) return false;
    const candidates = await this.checks.ofVendorCandidate(organizationId, candidateOf);
    if (candidates.length === 0) return false;
    if (event.type === 'invitation.completed' || event.type === 'invitation.expired') {
      const check = candidates.find((c) => c.invitationId === object.id);
      if (!check) return false;
      if (event.type === 'invitation.completed' && typeof object.report_id === 'string' && !check.reportId)
        return this.checks.save({ ...check, reportId: object.report_id.slice(0, 100), reportStatus: 'pending', updatedAt: this.now() });
      if (event.type === 'invitation.expired' && check.status === 'pending')
        return this.complete(
          check,
          check.requirements.map((r) => ({ ...r, status: 'unverified' as const, reason: 'invitation_expired' })),
        );
      return false;
    }
    if (!REPORT_EVENTS.has(event.type)) return false;
    const report = reportOf(object);
    if (!report) throw invalid('webhook_payload_invalid', 'The report in the webhook is not in the vendor shape');
    const check = candidates.find((c) => c.reportId === report.id) ?? candidates.find((c) => c.reportId === null && c.status === 'pending');
    if (!check) {
      // A new report for someone already decided: continuous monitoring found something.
      const monitored = candidates.find((c) => c.monitoring);
      if (!monitored || report.status !== 'complete' || monitored.monitoring!.lastReportId === report.id) return false;
      await this.checks.save({
        ...monitored,
        monitoring: { ...monitored.monitoring!, lastReportId: report.id, lastResult: report.result },
        updatedAt: this.now(),
      });
      await this.events.publish(
        'background_check.monitoring_alert',
        organizationId,
        {
          background_check_id: monitored.id,
          candidate_id: monitored.candidateId,
          monitoring_type: monitored.monitoring!.type,
          report_id: report.id,
          result: report.result,
        },
        { dedupeKey: `background_check.monitoring_alert:${organizationId}:${report.id}` },
      );
      return true;
    }
    const moved: BackgroundCheck = { ...check, reportId: report.id, reportStatus: report.status, reportResult: report.result, updatedAt: this.now() };
    if (report.status === 'complete' && check.status === 'pending') return this.complete(moved, await this.decide(moved, report, port, connector));
    if (report.status === 'canceled' && check.status === 'pending')
      return this.complete(
        moved,
        moved.requirements.map((r) => ({ ...r, status: 'unverified' as const, reason: 'report_canceled' })),
      );
    return this.checks.save(moved);
  }

  /** The requirement outcomes a complete report decides. */
  private async decide(
    check: BackgroundCheck,
    report: VendorReport,
    port: Awaited<ReturnType<VendorSteps['port']>>['port'],
    connector: string,
  ): Promise<VendorRequirementOutcome[]> {
    const at = this.now().toISOString();
    const evidence = (id: string, types: string[], detail?: string, validUntil: string | null = null): VendorRequirementOutcome['evidence'] => ({
      source: 'background_check',
      credential_id: id,
      issuer: connector,
      types,
      valid_from: at,
      valid_until: validUntil,
      verification: 'verified',
      ...(detail ? { detail } : {}),
    });
    if (check.purpose === 'standard') {
      const clear = report.result === 'clear';
      return [
        {
          requirement: 'background_check',
          status: clear ? 'met' : 'unverified',
          reason: clear ? null : 'report_consider',
          evidence: evidence(report.id, ['BackgroundCheck']),
        },
      ];
    }
    if (!report.motorVehicleReportId)
      return check.requirements.map((r) => ({
        ...r,
        status: 'unverified' as const,
        reason: 'motor_vehicle_record_missing',
        evidence: evidence(report.id, ['BackgroundCheck']),
      }));
    const record = await port.fetchMotorVehicleRecord(report.motorVehicleReportId);
    const verdict = judgeDrivingRecord(record);
    const major = verdict.majorViolations[0];
    return [
      {
        requirement: 'driver_license',
        status: verdict.licenseValid ? 'met' : 'unverified',
        reason: verdict.licenseValid ? null : 'driver_license_not_valid',
        evidence: evidence(
          record.id,
          ['DriverLicense'],
          record.licenseStatus ? `license status: ${record.licenseStatus}`.slice(0, 200) : undefined,
          record.expirationDate,
        ),
      },
      {
        requirement: 'motor_vehicle_record',
        status: major ? 'unverified' : 'met',
        reason: major ? 'major_violation' : null,
        evidence: evidence(record.id, ['MotorVehicleRecord'], major ? major.description.slice(0, 200) : undefined),
      },
    ];
  }

  private async complete(check: BackgroundCheck, outcomes: VendorRequirementOutcome[]): Promise<boolean> {
    const status = outcomes.every((o) => o.status === 'met') ? 'met' : 'not_met';
    const done: BackgroundCheck = { ...check, requirements: outcomes, status, completedAt: this.now(), updatedAt: this.now() };
    await this.checks.save(done);
    await this.events.publish(
      'credential_check.completed',
      check.organizationId,
      {
        action: check.action,
        check_id: check.hostCheckId,
        background_check_id: check.id,
        ...(check.listingId ? { listing_id: check.listingId } : {}),
        candidate_id: check.candidateId,
        status,
        requirements: outcomes,
      },
      { dedupeKey: `credential_check.completed:${check.action}:${check.organizationId}:${check.hostCheckId}` },
    );
    return true;
  }
}

const STATUSES: readonly VendorReportStatus[] = ['pending', 'complete', 'suspended', 'dispute', 'canceled'];

function reportOf(object: Record<string, unknown>): VendorReport | undefined {
  if (typeof object.id !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(object.id) || !STATUSES.includes(object.status as VendorReportStatus)) return undefined;
  const text = (v: unknown) => (typeof v === 'string' && v.length <= 100 ? v : null);
  return {
    id: object.id,
    status: object.status as VendorReportStatus,
    result: object.result === 'clear' || object.result === 'consider' ? object.result : null,
    packageSlug: text(object.package),
    vendorCandidateId: text(object.candidate_id),
    motorVehicleReportId: text(object.motor_vehicle_report_id),
  };
}

export { ROUTE_VERIFICATION_ACTION };
