/** hi_background_checks and hi_background_check_events. */
import type { Database } from '../../../platform/database/database';
import type { AdverseActionStage } from '../domain/adverse-action';
import type { BackgroundCheck, BackgroundCheckRepository, NewBackgroundCheck } from '../domain/background-check';

type Row = Record<string, any>;

const date = (v: unknown): Date | null => (v === null || v === undefined ? null : new Date(v as string));
const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);

function fromRow(r: Row): BackgroundCheck {
  return {
    id: r.id,
    organizationId: r.organization_id,
    action: r.action,
    hostCheckId: r.host_check_id,
    candidateId: r.candidate_id,
    listingId: r.listing_id ?? null,
    purpose: r.purpose,
    candidateEmail: r.candidate_email,
    candidateName: r.candidate_name ?? null,
    packageSlug: r.package_slug,
    connector: r.connector,
    runId: r.run_id ?? null,
    livemode: Boolean(r.livemode),
    vendorCandidateId: r.vendor_candidate_id,
    invitationId: r.invitation_id,
    invitationUrl: r.invitation_url ?? null,
    reportId: r.report_id ?? null,
    reportStatus: r.report_status,
    reportResult: r.report_result ?? null,
    requirements: parse(r.requirements),
    status: r.status,
    monitoring: r.monitoring_id
      ? { id: r.monitoring_id, type: r.monitoring_type, lastReportId: r.monitoring_report_id ?? null, lastResult: r.monitoring_result ?? null }
      : null,
    adverseAction: {
      stage: r.adverse_stage as AdverseActionStage,
      preNoticeAt: date(r.adverse_pre_notice_at),
      waitingUntil: date(r.adverse_waiting_until),
      finalNoticeAt: date(r.adverse_final_notice_at),
      cancelledAt: date(r.adverse_cancelled_at),
    },
    completedAt: date(r.completed_at),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

function changes(c: BackgroundCheck | NewBackgroundCheck): Row {
  return {
    listing_id: c.listingId,
    run_id: c.runId,
    invitation_url: c.invitationUrl,
    report_id: c.reportId,
    report_status: c.reportStatus,
    report_result: c.reportResult,
    requirements: JSON.stringify(c.requirements),
    status: c.status,
    monitoring_id: c.monitoring?.id ?? null,
    monitoring_type: c.monitoring?.type ?? null,
    monitoring_report_id: c.monitoring?.lastReportId ?? null,
    monitoring_result: c.monitoring?.lastResult ?? null,
    adverse_stage: c.adverseAction.stage,
    adverse_pre_notice_at: c.adverseAction.preNoticeAt,
    adverse_waiting_until: c.adverseAction.waitingUntil,
    adverse_final_notice_at: c.adverseAction.finalNoticeAt,
    adverse_cancelled_at: c.adverseAction.cancelledAt,
    completed_at: c.completedAt,
  };
}

export class KnexBackgroundChecks implements BackgroundCheckRepository {
  constructor(private readonly db: Database) {}

  async create(c: NewBackgroundCheck): Promise<BackgroundCheck> {
    await this.db('hi_background_checks')
      .insert({
        id: c.id,
        organization_id: c.organizationId,
        action: c.action,
        host_check_id: c.hostCheckId,
        candidate_id: c.candidateId,
        purpose: c.purpose,
        candidate_email: c.candidateEmail,
        candidate_name: c.candidateName,
        package_slug: c.packageSlug,
        connector: c.connector,
        livemode: c.livemode,
        vendor_candidate_id: c.vendorCandidateId,
        invitation_id: c.invitationId,
        ...changes(c),
        created_at: c.createdAt,
        updated_at: c.createdAt,
      })
      .onConflict(['organization_id', 'action', 'host_check_id'])
      .ignore();
    return (await this.find(c.organizationId, c.action, c.hostCheckId))!;
  }

  async findMany(organizationId: string, hostCheckIds: readonly string[]): Promise<BackgroundCheck[]> {
    if (hostCheckIds.length === 0) return [];
    const rows = await this.db('hi_background_checks').where({ organization_id: organizationId }).whereIn('host_check_id', hostCheckIds);
    return rows.map(fromRow);
  }

  async find(organizationId: string, action: string, hostCheckId: string): Promise<BackgroundCheck | undefined> {
    const row = await this.db('hi_background_checks').where({ organization_id: organizationId, action, host_check_id: hostCheckId }).first();
    return row ? fromRow(row) : undefined;
  }

  async get(organizationId: string, id: string): Promise<BackgroundCheck | undefined> {
    const row = await this.db('hi_background_checks').where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async list(organizationId: string, filter: { candidateId?: string; limit: number }): Promise<BackgroundCheck[]> {
    let query = this.db('hi_background_checks').where({ organization_id: organizationId });
    if (filter.candidateId) query = query.where({ candidate_id: filter.candidateId });
    return (
      await query
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(filter.limit)
    ).map(fromRow);
  }

  async ofVendorCandidate(organizationId: string, vendorCandidateId: string): Promise<BackgroundCheck[]> {
    return (
      await this.db('hi_background_checks')
        .where({ organization_id: organizationId, vendor_candidate_id: vendorCandidateId })
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(50)
    ).map(fromRow);
  }

  async save(c: BackgroundCheck, expectedStage?: string): Promise<boolean> {
    let query = this.db('hi_background_checks').where({ organization_id: c.organizationId, id: c.id });
    if (expectedStage !== undefined) query = query.where({ adverse_stage: expectedStage });
    return (await query.update({ ...changes(c), updated_at: c.updatedAt })) === 1;
  }

  async seenEvent(organizationId: string, eventId: string): Promise<boolean> {
    return Boolean(await this.db('hi_background_check_events').where({ organization_id: organizationId, event_id: eventId }).first('event_id'));
  }

  async recordEvent(organizationId: string, eventId: string, type: string, at: Date): Promise<void> {
    await this.db('hi_background_check_events')
      .insert({ organization_id: organizationId, event_id: eventId, type, received_at: at })
      .onConflict(['organization_id', 'event_id'])
      .ignore();
  }
}
