/**
 * Queue `license-provisioning`: sets up (`provision`) or tears down (`deprovision`) what
 * one license needs at the integration's side, through the provisioner of its action group.
 *
 * Idempotent: the job id is `<step>-<license id>`, so relaying the outbox row twice adds
 * one job; a provision only works on a license still `provisioning` and moves it with a
 * conditional update, so a second run (a retry after a crash, a stalled job picked up
 * again) finds it `active` (or `failed`) and only repeats the follow-ups a crash may have
 * cut off: the event (at least once) and settling the parent subscription (idempotent);
 * provisioners record per license, so a repeated call sets up nothing new. Retries: upstream failures retry with the queue's
 * backoff (8 tries over about four minutes, to outlast a database restart); on the last
 * attempt, or on a final error, the license ends `failed` with the reason, unless the last
 * failure was our own infrastructure (database or Redis unreachable): then it stays
 * `provisioning` and the reconciliation sweep runs the job again. A child of a subscription settles its parent when it ends either way.
 */
import { inject, injectable } from 'tsyringe';
import { UnrecoverableJobError, type JobContext, type JobProcessor } from '../../../kernel/job-queue';
import { LicenseProvisioning, type ProvisioningOutcome } from '../domain/license-provisioning';
import { LICENSE_PROVISIONING_QUEUE, type LicenseProvisioningJob } from '../domain/provisioning-messages';
import { hasPrefix } from '../../../kernel/ids';

@injectable()
export class LicenseProvisioningProcessor implements JobProcessor<LicenseProvisioningJob> {
  readonly queue = LICENSE_PROVISIONING_QUEUE;

  constructor(@inject(LicenseProvisioning) private readonly provisioning: LicenseProvisioning) {}

  async process(job: JobContext<LicenseProvisioningJob>): Promise<{ outcome: ProvisioningOutcome }> {
    const { license_id: licenseId, step } = job.data;
    if (!hasPrefix(licenseId, 'lic')) throw new UnrecoverableJobError('license-provisioning job without a license id');
    switch (step) {
      case 'provision':
        return { outcome: await this.provisioning.provision(licenseId, { attempt: job.attempt, maxAttempts: job.maxAttempts }) };
      case 'deprovision':
        return { outcome: await this.provisioning.deprovision(licenseId) };
      default:
        throw new UnrecoverableJobError(`unknown license-provisioning step "${String(step)}"`);
    }
  }
}
