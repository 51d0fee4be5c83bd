/** The background-check resource as the API shows it (and OpenAPI describes it). */
import { z } from '../../../platform/http/route';
import type { BackgroundCheck } from '../domain/background-check';
import { MAX_WAITING_BUSINESS_DAYS, MIN_WAITING_BUSINESS_DAYS } from '../domain/adverse-action';

const iso = z.iso.datetime().nullable();

const outcome = z.object({
  requirement: z.string(),
  status: z.enum(['pending', 'met', 'unverified']),
  reason: z.string().nullable().meta({ description: 'report_consider, major_violation, driver_license_not_valid, invitation_expired, report_canceled, …' }),
  evidence: z
    .object({
      source: z.literal('background_check'),
      credential_id: z.string(),
      issuer: z.string(),
      types: z.array(z.string()),
      valid_from: iso,
      valid_until: z.string().nullable(),
      verification: z.literal('verified'),
      detail: z.string().optional(),
    })
    .nullable(),
});

export const backgroundCheckSchema = z
  .object({
    id: z.string().meta({ example: 'bgc_3kTQ9vJ0aP1mXc2' }),
    object: z.literal('background_check'),
    action: z.enum(['background_checks.run_check', 'background_checks.route_verification']),
    check_id: z.string().meta({ description: "The host's check id from background_check.requested" }),
    candidate_id: z.string(),
    listing_id: z.string().nullable(),
    purpose: z.enum(['standard', 'driver']),
    package: z.string(),
    connector: z.string(),
    livemode: z.boolean(),
    run_id: z.string().nullable(),
    vendor: z.object({ candidate_id: z.string(), invitation_id: z.string(), invitation_url: z.string().nullable(), report_id: z.string().nullable() }),
    report_status: z.enum(['invited', 'pending', 'complete', 'suspended', 'dispute', 'canceled']),
    report_result: z.enum(['clear', 'consider']).nullable(),
    status: z.enum(['pending', 'met', 'not_met']),
    requirements: z.array(outcome),
    monitoring: z
      .object({
        id: z.string(),
        type: z.enum(['criminal', 'mvr']),
        last_report_id: z.string().nullable(),
        last_result: z.enum(['clear', 'consider']).nullable(),
      })
      .nullable(),
    adverse_action: z.object({
      stage: z.enum(['none', 'pre_notice_sent', 'final_notice_sent', 'cancelled']),
      pre_notice_at: iso,
      waiting_until: iso,
      final_notice_at: iso,
      cancelled_at: iso,
    }),
    completed_at: iso,
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'BackgroundCheck' });

export const backgroundCheckView = (c: BackgroundCheck): z.output<typeof backgroundCheckSchema> => ({
  id: c.id,
  object: 'background_check',
  action: c.action,
  check_id: c.hostCheckId,
  candidate_id: c.candidateId,
  listing_id: c.listingId,
  purpose: c.purpose,
  package: c.packageSlug,
  connector: c.connector,
  livemode: c.livemode,
  run_id: c.runId,
  vendor: { candidate_id: c.vendorCandidateId, invitation_id: c.invitationId, invitation_url: c.invitationUrl, report_id: c.reportId },
  report_status: c.reportStatus,
  report_result: c.reportResult,
  status: c.status,
  requirements: c.requirements.map((r) => ({ ...r, evidence: r.evidence ? { ...r.evidence } : null })),
  monitoring: c.monitoring
    ? { id: c.monitoring.id, type: c.monitoring.type, last_report_id: c.monitoring.lastReportId, last_result: c.monitoring.lastResult }
    : null,
  adverse_action: {
    stage: c.adverseAction.stage,
    pre_notice_at: c.adverseAction.preNoticeAt?.toISOString() ?? null,
    waiting_until: c.adverseAction.waitingUntil?.toISOString() ?? null,
    final_notice_at: c.adverseAction.finalNoticeAt?.toISOString() ?? null,
    cancelled_at: c.adverseAction.cancelledAt?.toISOString() ?? null,
  },
  completed_at: c.completedAt?.toISOString() ?? null,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

export const checkParams = z.object({ background_check_id: z.string().min(1).max(100) });

export const startAdverseActionBody = z
  .object({
    waiting_business_days: z
      .number()
      .int()
      .min(MIN_WAITING_BUSINESS_DAYS)
      .max(MAX_WAITING_BUSINESS_DAYS)
      .default(MIN_WAITING_BUSINESS_DAYS)
      .meta({ description: 'Business days (Mon–Fri) the candidate has to dispute before the final notice; at least 5' }),
  })
  .strict();

export const vendorEventBody = z
  .object({
    id: z.string().min(1).max(100),
    object: z.string().max(50).optional(),
    type: z.string().min(1).max(100),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
  })
  .meta({ description: "The vendor's event as it sent it (Checkr: include_object on); verified over the raw bytes with X-Checkr-Signature" });

export const vendorEventAnswer = z.object({ received: z.literal(true), event_id: z.string(), type: z.string(), duplicate: z.boolean(), applied: z.boolean() });
