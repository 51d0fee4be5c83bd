/**
 * À la carte licenses: activate (idempotent: a live license answers itself), deactivate,
 * list, and the entitlement question. Every state change goes through a repository
 * transition that checks the state machine, and is announced through LicenseChanges.
 */
import { inject, injectable } from 'tsyringe';
import { CatalogService } from './catalog-service';
import { requireActionKey } from './action-key';
import { OUTBOX_NOTIFIER, type OutboxNotifier } from '../../../kernel/outbox';
import { CLOCK, type Clock } from '../../../kernel/clock';
import { conflict, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import { licenseRequired, type Entitlements } from './entitlements';
import type { License, LicenseStatus } from './license';
import { LicenseChanges, licenseEventMessage } from './license-changes';
import { LICENSE_REPOSITORY, type LicenseRepository } from './ports';
import { deprovisionMessage, provisionMessage } from './provisioning-messages';
import { RUNNABLE_ACTIONS, type RunnableActions } from './runnable-actions';

export interface Activation {
  license: License;
  /** false when an existing live license answered. */
  created: boolean;
}

@injectable()
export class LicenseService implements Entitlements {
  constructor(
    @inject(LICENSE_REPOSITORY) private readonly licenses: LicenseRepository,
    @inject(CatalogService) private readonly catalog: CatalogService,
    @inject(LicenseChanges) private readonly changes: LicenseChanges,
    @inject(OUTBOX_NOTIFIER) private readonly outbox: OutboxNotifier,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(RUNNABLE_ACTIONS) private readonly runnable: RunnableActions,
  ) {}

  async activate(organizationId: string, actionKey: string): Promise<Activation> {
    await this.catalog.requireAction(actionKey);
    const existing = await this.licenses.findLive(organizationId, actionKey, 'a_la_carte');
    if (existing) return { license: existing, created: false };
    // No selling air: without a connection its steps need, the license waits (unbilled) until one is verified.
    const missing = await this.runnable.missingConnections(organizationId, actionKey);
    const license: License = {
      id: newId('lic'),
      organizationId,
      actionKey,
      source: { type: 'a_la_carte' },
      status: missing.length > 0 ? 'requires_connection' : 'provisioning',
      failureReason: null,
      missingConnections: missing,
      createdAt: this.clock.now(),
      activatedAt: null,
      failedAt: null,
      deactivatedAt: null,
    };
    const result = await this.licenses.create(license, missing.length > 0 ? [] : [provisionMessage(license.id)]);
    if (result.created && missing.length === 0) this.outbox.nudge();
    return { license: result.value, created: result.created };
  }

  /**
   * An organization's connections changed (one was verified): each license waiting for a
   * connection whose action can now run moves on to provisioning (then `active`,
   * `license.activated`, and billing from that instant). Answers the licenses it moved.
   */
  async connectionsChanged(organizationId: string): Promise<License[]> {
    const waiting = (await this.licenses.listLive(organizationId)).filter((l) => l.status === 'requires_connection');
    const moved: License[] = [];
    for (const license of waiting) {
      if ((await this.runnable.missingConnections(organizationId, license.actionKey)).length > 0) continue;
      const next = await this.licenses.transition(license.id, { event: 'connection_ready', at: this.clock.now() }, [provisionMessage(license.id)]);
      if (next) moved.push(next);
    }
    if (moved.length > 0) this.outbox.nudge();
    return moved;
  }

  /**
   * Deactivates the organization's à la carte license for the action. A license held only
   * through a package is ended by unsubscribing (409 `license_from_package`).
   */
  async deactivate(organizationId: string, actionKey: string): Promise<License> {
    await this.catalog.requireAction(actionKey);
    const live = await this.licenses.findLive(organizationId, actionKey, 'a_la_carte');
    if (!live) {
      const viaPackage = (await this.licenses.listLive(organizationId)).find((l) => l.actionKey === actionKey);
      if (viaPackage && viaPackage.source.type === 'package') {
        throw conflict(
          'license_from_package',
          `'${actionKey}' is licensed through the package '${viaPackage.source.packageSlug}'; unsubscribe from the package instead`,
        );
      }
      throw notFound('active license for action', actionKey);
    }
    const at = this.clock.now();
    // Whether another active license keeps the action, for the event written with the change.
    const stillEntitled = (await this.licenses.listLive(organizationId)).some((l) => l.id !== live.id && l.actionKey === actionKey && l.status === 'active');
    const deactivatedView: License = { ...live, status: 'deactivated', deactivatedAt: at };
    const deactivated = await this.licenses.transition(live.id, { event: 'deactivate', at }, [
      deprovisionMessage(live.id),
      licenseEventMessage('license.deactivated', deactivatedView, stillEntitled),
    ]);
    if (!deactivated) {
      // It left the live states between the read and the update (it failed meanwhile).
      const now = await this.licenses.findById(live.id);
      throw conflict('invalid_license_state', `The license is ${now?.status ?? 'gone'} and cannot be deactivated`);
    }
    this.outbox.nudge();
    await this.changes.license('license.deactivated', deactivated, await this.isActive(organizationId, actionKey));
    return deactivated;
  }

  /**
   * Every organization with a waiting license, once: what resolves may have changed while no
   * connection was tested (an operator set a deployment default, a host registered a connector).
   */
  async reviewAwaitingConnection(): Promise<number> {
    let moved = 0;
    for (const organizationId of await this.licenses.organizationsAwaitingConnection()) moved += (await this.connectionsChanged(organizationId)).length;
    return moved;
  }

  list(organizationId: string, filter: { status?: LicenseStatus; actionKey?: string } = {}): Promise<License[]> {
    if (filter.actionKey !== undefined) requireActionKey(filter.actionKey);
    return this.licenses.list(organizationId, filter);
  }

  isActive(organizationId: string, actionKey: string): Promise<boolean> {
    return this.licenses.hasActive(organizationId, actionKey);
  }

  async requireActive(organizationId: string, actionKey: string): Promise<void> {
    if (!(await this.isActive(organizationId, actionKey))) {
      throw licenseRequired(actionKey);
    }
  }
}
