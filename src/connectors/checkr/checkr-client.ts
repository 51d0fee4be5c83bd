/**
 * Checkr's REST API (https://docs.checkr.com): JSON bodies, HTTP basic auth with the secret API
 * key as the username and an empty password. An order is two calls: the candidate, then an
 * invitation to Checkr's hosted apply flow, where the candidate reads the disclosures and gives
 * consent; nothing is screened before that. A step counts as done only when Checkr answered
 * with the object's id.
 */
import type { ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import type {
  BackgroundCheckConnector,
  BackgroundCheckOrder,
  MonitoringEnrollment,
  MonitoringSubscription,
  MotorVehicleRecord,
  OrderedBackgroundCheck,
  VendorEvent,
  VendorReport,
  VendorReportStatus,
} from '../../features/hooks/domain/connectors';
import type { CheckrCredentials, CheckrSettings } from './settings';
import { checkrFailure, classifyCheckrAnswer, classifyCheckrNetworkError, protocolError, type ClassifiedCheckrError } from './checkr-errors';
import { verifyCheckrWebhook } from './checkr-webhook';
import { readJson } from '../../platform/http-client/read-json';

const TIMEOUT_MS = 15_000;
const REPORT_STATUSES: readonly VendorReportStatus[] = ['pending', 'complete', 'suspended', 'dispute', 'canceled'];

export type CheckrAnswer = { ok: true; body: Record<string, unknown> } | { ok: false; error: ClassifiedCheckrError };

export class CheckrApi {
  constructor(
    private readonly settings: CheckrSettings,
    private readonly credentials: CheckrCredentials,
    /** The pinned network for an organization's connection; the global fetch otherwise. */
    private readonly network?: ConnectorNetwork,
  ) {}

  async call(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<CheckrAnswer> {
    const authorization = `Basic ${Buffer.from(`${this.credentials.api_key}:`).toString('base64')}`;
    let response: Response;
    try {
      response = await (this.network?.fetch ?? fetch)(new URL(path, this.settings.api_base_url), {
        method,
        headers: { authorization, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        redirect: 'error',
      });
    } catch (error) {
      return { ok: false, error: classifyCheckrNetworkError(error) };
    }
    const parsed = await readJson(response);
    if (!response.ok) return { ok: false, error: classifyCheckrAnswer(response.status, parsed, response.headers.get('retry-after')) };
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      return { ok: false, error: { code: 'connection_protocol_error', message: `Checkr answered ${response.status} without a JSON object`, transient: true } };
    return { ok: true, body: parsed as Record<string, unknown> };
  }
}

const idOf = (body: Record<string, unknown>, what: string): string => {
  const id = body.id;
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(id)) throw protocolError(`${what} id`);
  return id;
};
const text = (v: unknown): string | null => (typeof v === 'string' && v.length <= 1000 ? v : null);

export class CheckrBackgroundChecks implements BackgroundCheckConnector {
  private readonly api: CheckrApi;

  constructor(
    settings: CheckrSettings,
    private readonly credentials: CheckrCredentials,
    network?: ConnectorNetwork,
  ) {
    this.api = new CheckrApi(settings, credentials, network);
  }

  async orderCheck(order: BackgroundCheckOrder): Promise<OrderedBackgroundCheck> {
    const location = {
      country: order.workLocation.country,
      ...(order.workLocation.state ? { state: order.workLocation.state } : {}),
      ...(order.workLocation.city ? { city: order.workLocation.city } : {}),
    };
    const candidate = await this.expect(
      this.api.call('POST', '/v1/candidates', {
        email: order.email,
        ...(order.firstName ? { first_name: order.firstName } : {}),
        ...(order.lastName ? { last_name: order.lastName } : {}),
        work_locations: [location],
      }),
    );
    const vendorCandidateId = idOf(candidate, 'a candidate');
    const invitation = await this.expect(
      this.api.call('POST', '/v1/invitations', { candidate_id: vendorCandidateId, package: order.packageSlug, work_locations: [location] }),
    );
    const invitationId = idOf(invitation, 'an invitation');
    const invitationUrl = text(invitation.invitation_url);
    if (!invitationUrl || !/^https:\/\//.test(invitationUrl)) throw protocolError('an https invitation_url');
    return { deliveryId: invitationId, reference: invitationId, livemode: true, vendorCandidateId, invitationId, invitationUrl };
  }

  async enrollMonitoring(enrollment: MonitoringEnrollment): Promise<MonitoringSubscription> {
    const check = await this.expect(
      this.api.call('POST', `/v1/candidates/${encodeURIComponent(enrollment.vendorCandidateId)}/continuous_checks`, { type: enrollment.type }),
    );
    const subscriptionId = idOf(check, 'a continuous check');
    return { deliveryId: subscriptionId, reference: subscriptionId, livemode: true, subscriptionId };
  }

  async fetchReport(reportId: string): Promise<VendorReport> {
    return reportFrom(await this.expect(this.api.call('GET', `/v1/reports/${encodeURIComponent(reportId)}`)));
  }

  async fetchMotorVehicleRecord(id: string): Promise<MotorVehicleRecord> {
    const body = await this.expect(this.api.call('GET', `/v1/motor_vehicle_reports/${encodeURIComponent(id)}`));
    const violations = Array.isArray(body.violations) ? body.violations : [];
    return {
      id: idOf(body, 'a motor vehicle report'),
      licenseStatus: text(body.license_status),
      licenseState: text(body.license_state),
      expirationDate: text(body.expiration_date),
      violations: violations
        .filter((v): v is Record<string, unknown> => Boolean(v) && typeof v === 'object')
        .slice(0, 200)
        .map((v) => ({ description: text(v.description) ?? '', category: text(v.category), date: text(v.conviction_date) ?? text(v.issued_date) })),
    };
  }

  verifyWebhook(rawBody: Buffer, signature: string | undefined): VendorEvent {
    return verifyCheckrWebhook(rawBody, signature, this.credentials.api_key);
  }

  private async expect(answer: Promise<CheckrAnswer>): Promise<Record<string, unknown>> {
    const a = await answer;
    if (!a.ok) throw checkrFailure(a.error);
    return a.body;
  }
}

/** A report object, from the API or a webhook's `data.object`; anything not in Checkr's shape is a protocol error. */
export function reportFrom(body: Record<string, unknown>): VendorReport {
  const status = body.status;
  if (!REPORT_STATUSES.includes(status as VendorReportStatus)) throw protocolError('a known report status');
  const result = body.result === 'clear' || body.result === 'consider' ? body.result : null;
  return {
    id: idOf(body, 'a report'),
    status: status as VendorReportStatus,
    result,
    packageSlug: text(body.package),
    vendorCandidateId: text(body.candidate_id),
    motorVehicleReportId: text(body.motor_vehicle_report_id),
  };
}
