/**
 * No selling air: a purchase (activation, subscription, switch) or its quote is refused
 * when it would buy an action this build cannot perform, as Stripe refuses an inactive
 * price. An unknown action or package is left to the step that answers 404 for it.
 *
 *   409 action_not_available   the action has no handler here
 *   409 package_not_available  the package holds such an action (details.actions names them);
 *                              a package is sold whole or not at all
 */
import { inject, injectable } from 'tsyringe';
import { conflict } from '../../../kernel/errors';
import { CATALOG_REPOSITORY, type CatalogRepository } from '../../licensing/domain/catalog';
import { PACKAGE_REPOSITORY, type PackageRepository } from '../../licensing/domain/package';
import { RUNNABLE_ACTIONS, type RunnableActions } from '../../licensing/domain/runnable-actions';
import type { BillingChange } from './quote';

@injectable()
export class Purchasability {
  constructor(
    @inject(RUNNABLE_ACTIONS) private readonly runnable: RunnableActions,
    @inject(PACKAGE_REPOSITORY) private readonly packages: PackageRepository,
    @inject(CATALOG_REPOSITORY) private readonly catalog: CatalogRepository,
  ) {}

  /** Throws 409 when the change would buy something this build cannot run; dropping is always allowed. */
  async require(change: BillingChange): Promise<void> {
    if (change.type === 'activate') return this.requireAction(change.actionKey);
    if (change.type === 'subscribe') return this.requirePackage(change.packageSlug);
    if (change.type === 'switch') return this.requirePackage(change.toSlug);
  }

  async requireAction(actionKey: string): Promise<void> {
    if (this.runnable.canRun(actionKey) || !(await this.catalog.action(actionKey))) return;
    throw conflict('action_not_available', `This installation cannot perform '${actionKey}' (no handler): it cannot be purchased`, {
      param: 'action_key',
      actions: [actionKey],
    });
  }

  async requirePackage(slug: string): Promise<void> {
    const pkg = await this.packages.findBySlug(slug);
    if (!pkg) return;
    const missing = pkg.actions.map((a) => a.key).filter((key) => !this.runnable.canRun(key));
    if (missing.length === 0) return;
    throw conflict('package_not_available', `The package '${slug}' holds actions this installation cannot perform: ${missing.join(', ')}`, {
      param: 'package_slug',
      actions: missing,
    });
  }
}
