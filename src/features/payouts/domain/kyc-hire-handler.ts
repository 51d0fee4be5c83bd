/**
 * payouts.kyc_verification from the hire hook (gig platforms): `candidate.hired` makes the
 * hire a payout worker (reference = the candidate id) with a connected account at the
 * organization's payouts provider, and emails them the hosted onboarding (KYC) link, each an
 * action run. The payload needs the country of the worker's bank account (`country`): the
 * provider opens the account in it, so it is never guessed.
 */
import { inject } from 'tsyringe';
import { z } from 'zod';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import { candidateHired } from '../../hooks/domain/payloads';
import { KYC_ACTION } from './payout-worker';
import { PayoutWorkers } from './payout-workers';

export const kycHire = candidateHired.extend({
  country: z.string().regex(/^[A-Z]{2}$/, "expected the ISO 3166-1 alpha-2 country of the worker's bank account, e.g. US"),
});

@HookHandlerFor({
  name: 'payouts-kyc-onboarding',
  hook: 'candidate.hired',
  action: KYC_ACTION,
  description: "Creates the hire's connected account at the payouts provider (once) and emails the hosted onboarding (KYC) link",
})
export class KycHireHandler implements GatedHookHandler {
  constructor(@inject(PayoutWorkers) private readonly workers: PayoutWorkers) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const hire = parsePayload(kycHire, payload);
    const { worker, onboarding } = await this.workers.enrollHire(organizationId, {
      reference: hire.candidate_id,
      email: hire.candidate.email,
      phone: hire.candidate.phone ?? undefined,
      country: hire.country,
    });
    return {
      candidate_id: hire.candidate_id,
      worker_id: worker.id,
      account_id: worker.accountId,
      kyc_status: worker.kycStatus,
      onboarding_run_id: onboarding?.runId ?? worker.onboardingRunId,
      message_run_id: onboarding?.messageRunId ?? null,
      link_sent: onboarding !== null,
    };
  }
}
