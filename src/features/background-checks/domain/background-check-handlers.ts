/**
 * The hook handlers of the vendor-backed background-check actions:
 *  - `background_check.requested` → `background_checks.run_check` (purpose `standard`) or
 *    `background_checks.route_verification` (purpose `driver`: MVR package, driver's license
 *    and motor-vehicle record requirements): orders the check, requirements `pending`;
 *  - `candidate.hired` → `background_checks.continuous_monitoring`: enrolls the hired person's
 *    vendor-screened check in continuous monitoring.
 * A payload for the other purpose is skipped with its reason, so each license does its own part.
 */
import { z } from 'zod';
import { DomainError } from '../../../kernel/errors';
import { hostId } from '../../hooks/domain/payloads';
import { parsePayload, type GatedHookHandler, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import { RUN_CHECK_ACTION, ROUTE_VERIFICATION_ACTION, type BackgroundCheck, type BackgroundCheckAction, type CheckPurpose } from './background-check';
import type { BackgroundCheckService } from './background-check-service';

const text = (max: number) => z.string().trim().min(1).max(max);

export const backgroundCheckRequested = z.object({
  check_id: hostId,
  candidate_id: hostId,
  listing_id: z.string().min(1).max(100).optional(),
  purpose: z.enum(['standard', 'driver']).default('standard'),
  candidate: z.object({ email: z.email().max(320), first_name: text(100).optional(), last_name: text(100).optional() }),
  package: z
    .string()
    .regex(/^[a-z0-9_]{1,64}$/)
    .meta({ description: "The vendor's package slug (Checkr: `tasker_standard`, `driver_pro`, …)" }),
  work_location: z.object({
    country: z.string().regex(/^[A-Z]{2}$/),
    state: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .optional(),
    city: text(100).optional(),
  }),
});

const hired = z.object({ candidate_id: hostId });

export const checkReport = (check: BackgroundCheck): HookHandlerReport => ({
  background_check_id: check.id,
  check_id: check.hostCheckId,
  candidate_id: check.candidateId,
  status: check.status,
  invitation_url: check.invitationUrl,
  requirements: check.requirements,
  run_id: check.runId,
  livemode: check.livemode,
});

export class BackgroundCheckRequestHandler implements GatedHookHandler {
  constructor(
    private readonly service: BackgroundCheckService,
    private readonly action: BackgroundCheckAction,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const request = parsePayload(backgroundCheckRequested, payload);
    const purpose: CheckPurpose = this.action === ROUTE_VERIFICATION_ACTION ? 'driver' : 'standard';
    if (request.purpose !== purpose)
      throw new DomainError('invalid', 'purpose_not_handled', `${this.action} handles purpose ${purpose}; this request is ${request.purpose}`, {
        param: 'purpose',
      });
    if (request.work_location.country === 'US' && !request.work_location.state)
      throw new DomainError('invalid', 'invalid_payload', 'work_location.state: required for a US work location', { param: 'work_location.state' });
    const check = await this.service.order(organizationId, {
      action: this.action,
      hostCheckId: request.check_id,
      candidateId: request.candidate_id,
      listingId: request.listing_id ?? null,
      purpose,
      email: request.candidate.email,
      ...(request.candidate.first_name ? { firstName: request.candidate.first_name } : {}),
      ...(request.candidate.last_name ? { lastName: request.candidate.last_name } : {}),
      packageSlug: request.package,
      workLocation: request.work_location,
    });
    return checkReport(check);
  }
}

export class ContinuousMonitoringHandler implements GatedHookHandler {
  constructor(private readonly service: BackgroundCheckService) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const { candidate_id } = parsePayload(hired, payload);
    const check = await this.service.monitor(organizationId, candidate_id);
    return { background_check_id: check.id, candidate_id, monitoring_id: check.monitoring!.id, monitoring_type: check.monitoring!.type };
  }
}

export const REQUEST_ACTIONS = [
  {
    action: RUN_CHECK_ACTION,
    name: 'background-check-order',
    description: 'Orders a background check from the vendor (candidate + hosted consent invitation); requirement pending until the signed result webhook',
  },
  {
    action: ROUTE_VERIFICATION_ACTION,
    name: 'route-verification-order',
    description: "Orders a driver's motor-vehicle record from the vendor; driver_license and motor_vehicle_record pending until the signed result webhook",
  },
] as const;
