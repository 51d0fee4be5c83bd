/**
 * The test-mode background-check vendor: records the order (candidate and invitation ids derived
 * from the idempotency key) and screens nobody. Its reports stay `pending` and it sends no
 * webhooks, so a sandbox check never completes: only a real vendor's signed result does that.
 */
import { createHash } from 'node:crypto';
import { invalid } from '../../kernel/errors';
import type {
  BackgroundCheckConnector,
  BackgroundCheckOrder,
  MonitoringEnrollment,
  MonitoringSubscription,
  MotorVehicleRecord,
  OrderedBackgroundCheck,
  VendorEvent,
  VendorReport,
} from '../../features/hooks/domain/connectors';
import type { SandboxDeliveryLog } from './sandbox-connectors';

const digest = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 24);

export class SandboxBackgroundChecks implements BackgroundCheckConnector {
  constructor(private readonly log: SandboxDeliveryLog) {}

  async orderCheck(order: BackgroundCheckOrder): Promise<OrderedBackgroundCheck> {
    const id = digest(order.idempotencyKey);
    const answer = await this.log.record(
      'background_checks',
      order,
      { email: order.email, package: order.packageSlug, work_location: order.workLocation },
      { vendorCandidateId: `sbxcand${id}`, invitationId: `sbxinv${id}`, invitationUrl: `https://apply.sandbox.invalid/invite/${id}` },
    );
    return { ...answer, reference: answer.invitationId, livemode: false };
  }

  async enrollMonitoring(enrollment: MonitoringEnrollment): Promise<MonitoringSubscription> {
    const answer = await this.log.record(
      'background_checks',
      enrollment,
      { candidate_id: enrollment.vendorCandidateId, type: enrollment.type },
      { subscriptionId: `sbxcc${digest(enrollment.idempotencyKey)}` },
    );
    return { ...answer, reference: answer.subscriptionId, livemode: false };
  }

  fetchReport(reportId: string): Promise<VendorReport> {
    return Promise.resolve({ id: reportId, status: 'pending', result: null, packageSlug: null, vendorCandidateId: null, motorVehicleReportId: null });
  }

  fetchMotorVehicleRecord(id: string): Promise<MotorVehicleRecord> {
    return Promise.resolve({ id, licenseStatus: null, licenseState: null, expirationDate: null, violations: [] });
  }

  verifyWebhook(): VendorEvent {
    throw invalid('webhook_signature_invalid', 'The sandbox background-check vendor sends no webhooks: connect a real vendor');
  }
}
