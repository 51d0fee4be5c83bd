/**
 * Queue `compliance-sweep`: a repeatable job (a BullMQ job scheduler, every
 * COMPLIANCE_SWEEP_INTERVAL_SECONDS; a timer in embedded mode) that sends credential.expiring
 * at each organization's reminder thresholds and credential.expired on the day, after verifying
 * again each held verifiable credential last verified a day ago or more (credential.revoked,
 * credential.untrusted).
 *
 * Idempotent: each notice's event has a dedupe key naming the credential, its expiry and the
 * threshold, and the notices sent are recorded on the row, so two runs at once send each once.
 */
import type { JobContext, JobProcessor } from '../../../kernel/job-queue';
import type { ComplianceService, SweepReport } from '../domain/compliance-service';

export const COMPLIANCE_SWEEP_QUEUE = 'compliance-sweep';

export class ComplianceSweepProcessor implements JobProcessor<Record<string, never>> {
  readonly queue = COMPLIANCE_SWEEP_QUEUE;

  constructor(private readonly compliance: ComplianceService) {}

  async process(_job: JobContext<Record<string, never>>): Promise<SweepReport> {
    return this.compliance.sweep();
  }
}
