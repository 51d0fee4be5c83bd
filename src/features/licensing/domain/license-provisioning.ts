/**
 * What the `license-provisioning` job does, step by step. Provision: only a license still
 * `provisioning` is worked on; the provisioner is idempotent per license; success moves
 * it to `active`, and a failure is retried while retrying can help and tries remain, then
 * moves it to `failed` with the reason. A child of a subscription settles its parent. A
 * run that finds the license already settled (its predecessor died after the transition)
 * repeats only the follow-ups: the event and the parent's settlement.
 * Deprovision: tears down what a deactivated license set up, unless the organization
 * still holds the action through another live license (à la carte beside a package).
 */
import { inject, injectable } from 'tsyringe';
import { groupOf } from './action-key';
import { UnrecoverableJobError } from '../../../kernel/job-queue';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { isAvailabilityError } from '../../../kernel/availability';
import { isDomainError } from '../../../kernel/errors';
import { subscriptionIdOf, type License } from './license';
import { LicenseChanges, licenseEventMessage } from './license-changes';
import { LICENSE_REPOSITORY, type LicenseRepository } from './ports';
import { PROVISIONER_DIRECTORY, type ProvisionerDirectory, type ProvisioningRequest } from './provisioner';
import { SubscriptionService } from './subscription-service';

export interface Attempt {
  attempt: number;
  maxAttempts: number;
}

export type ProvisioningOutcome = 'active' | 'failed' | 'skipped' | 'deprovisioned' | 'kept';

/** Only upstream trouble (or an unexpected error) may go away on its own. */
export function provisioningErrorIsFinal(error: unknown): boolean {
  if (error instanceof UnrecoverableJobError) return true;
  return isDomainError(error) && error.kind !== 'upstream';
}

export function failureReason(error: unknown, attempts: number): string {
  const text = isDomainError(error) ? `${error.code}: ${error.message}` : ((error as Error)?.message ?? String(error));
  return `${text.slice(0, 400)} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`;
}

const requestOf = (license: License): ProvisioningRequest => ({
  licenseId: license.id,
  organizationId: license.organizationId,
  actionKey: license.actionKey,
  groupKey: groupOf(license.actionKey),
});

@injectable()
export class LicenseProvisioning {
  constructor(
    @inject(LICENSE_REPOSITORY) private readonly licenses: LicenseRepository,
    @inject(PROVISIONER_DIRECTORY) private readonly provisioners: ProvisionerDirectory,
    @inject(SubscriptionService) private readonly subscriptions: SubscriptionService,
    @inject(LicenseChanges) private readonly changes: LicenseChanges,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async provision(licenseId: string, { attempt, maxAttempts }: Attempt): Promise<ProvisioningOutcome> {
    const license = await this.licenses.findById(licenseId);
    if (!license) throw new UnrecoverableJobError(`no license ${licenseId}`);
    if (license.status === 'active' || license.status === 'failed') {
      // A run after one that settled the license but died before its follow-ups (a worker
      // crash): finish them. The event is at least once; settling the parent is idempotent.
      await this.announce(license);
      return 'skipped';
    }
    if (license.status !== 'provisioning') return 'skipped';
    const request = requestOf(license);
    const provisioner = this.provisioners.forGroup(request.groupKey);
    try {
      await provisioner.provision(request);
    } catch (error) {
      if (!provisioningErrorIsFinal(error) && attempt < maxAttempts) throw error;
      // Out of tries because our own infrastructure was away (database, Redis): not the
      // license's fault. It stays `provisioning` and the reconciliation sweep retries it.
      if (isAvailabilityError(error)) throw error;
      const reason = failureReason(error, attempt);
      const at = this.clock.now();
      const stillEntitled = await this.licenses.hasActive(license.organizationId, license.actionKey);
      const failedView: License = { ...license, status: 'failed', failureReason: reason, failedAt: at };
      // The event is written with the change (the outbox); announce() below then only notifies.
      const failed = await this.licenses.transition(licenseId, { event: 'provisioning_failed', at, failureReason: reason }, [
        licenseEventMessage('license.failed', failedView, stillEntitled),
      ]);
      if (failed) await this.announce(failed);
      throw new UnrecoverableJobError(reason);
    }
    const at = this.clock.now();
    const activeView: License = { ...license, status: 'active', activatedAt: at };
    const active = await this.licenses.transition(licenseId, { event: 'provisioned', at }, [licenseEventMessage('license.activated', activeView, false)]);
    if (!active) {
      // Deactivated while the provisioner worked: undo what it just set up.
      if (!(await this.licenses.hasOtherLive(license.organizationId, license.actionKey, license.id))) await provisioner.deprovision(request);
      return 'skipped';
    }
    await this.announce(active);
    return 'active';
  }

  async deprovision(licenseId: string): Promise<ProvisioningOutcome> {
    const license = await this.licenses.findById(licenseId);
    if (!license) throw new UnrecoverableJobError(`no license ${licenseId}`);
    if (license.status !== 'deactivated') return 'skipped';
    if (await this.licenses.hasOtherLive(license.organizationId, license.actionKey, license.id)) return 'kept';
    await this.provisioners.forGroup(groupOf(license.actionKey)).deprovision(requestOf(license));
    return 'deprovisioned';
  }

  /** What follows a license settling: its event (and cache invalidations), then its subscription's state. */
  private async announce(license: License): Promise<void> {
    if (license.status === 'active') await this.changes.license('license.activated', license);
    else await this.changes.license('license.failed', license, await this.licenses.hasActive(license.organizationId, license.actionKey));
    const subscriptionId = subscriptionIdOf(license);
    if (subscriptionId) await this.subscriptions.settle(subscriptionId);
  }
}
