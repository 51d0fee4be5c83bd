import type { Knex } from 'knex';
import { inject, injectable } from 'tsyringe';
import type { OutboxMessage } from '../../../kernel/outbox';
import { LIVE_LICENSE_STATUSES, type License } from '../domain/license';
import type { CreateResult, SubscriptionRepository, SubscriptionSettlement } from '../domain/ports';
import { LIVE_SUBSCRIPTION_STATUSES, type Subscription, type SubscriptionWithLicenses } from '../domain/subscription';
import { nextSubscriptionStatus, settleFromChildren, type SubscriptionEvent } from '../domain/subscription-state-machine';
import { isUniqueViolation, type Database } from '../../../platform/database/database';
import {
  licenseFromRow,
  licenseToRow,
  licenseTransitionColumns,
  subscriptionFromRow,
  subscriptionToRow,
  type LicenseRow,
  type SubscriptionRow,
} from './license-rows';
import { writeOutbox } from '../../../platform/queue/outbox';
import { DATABASE } from '../../../platform/database/tokens';

export const ONE_LIVE_SUBSCRIPTION = 'hi_subscriptions_one_live';

@injectable()
export class KnexSubscriptionRepository implements SubscriptionRepository {
  constructor(@inject(DATABASE) private readonly db: Database) {}

  async create(subscription: Subscription, licenses: readonly License[], messages: readonly OutboxMessage[]): Promise<CreateResult<SubscriptionWithLicenses>> {
    try {
      await this.db.transaction(async (trx) => {
        await trx('hi_subscriptions').insert(subscriptionToRow(subscription));
        if (licenses.length > 0) await trx('hi_licenses').insert(licenses.map(licenseToRow));
        await writeOutbox(trx, messages);
      });
      return { created: true, value: { subscription, licenses: [...licenses] } };
    } catch (error) {
      if (!isUniqueViolation(error, ONE_LIVE_SUBSCRIPTION)) throw error;
      const existing = await this.findCurrent(subscription.organizationId, subscription.packageId);
      if (!existing) throw error;
      return { created: false, value: existing };
    }
  }

  async find(organizationId: string, subscriptionId: string): Promise<SubscriptionWithLicenses | undefined> {
    const row = await this.db<SubscriptionRow>('hi_subscriptions').where({ id: subscriptionId, organization_id: organizationId }).first();
    return row ? (await this.withLicenses(this.db, [row]))[0] : undefined;
  }

  async findById(subscriptionId: string): Promise<SubscriptionWithLicenses | undefined> {
    const row = await this.db<SubscriptionRow>('hi_subscriptions').where({ id: subscriptionId }).first();
    return row ? (await this.withLicenses(this.db, [row]))[0] : undefined;
  }

  async findCurrent(organizationId: string, packageId: string): Promise<SubscriptionWithLicenses | undefined> {
    const row = await this.db<SubscriptionRow>('hi_subscriptions')
      .where({ organization_id: organizationId, package_id: packageId })
      .whereNot({ status: 'canceled' })
      .orderBy('seq', 'desc')
      .first();
    return row ? (await this.withLicenses(this.db, [row]))[0] : undefined;
  }

  async list(organizationId: string): Promise<SubscriptionWithLicenses[]> {
    const rows = await this.db<SubscriptionRow>('hi_subscriptions').where({ organization_id: organizationId }).orderBy('seq', 'desc');
    return this.withLicenses(this.db, rows);
  }

  async listLive(organizationId: string): Promise<Subscription[]> {
    const rows = await this.db<SubscriptionRow>('hi_subscriptions')
      .where({ organization_id: organizationId })
      .whereIn('status', LIVE_SUBSCRIPTION_STATUSES)
      .orderBy('seq');
    return rows.map(subscriptionFromRow);
  }

  settle(subscriptionId: string, at: Date, deprovision: (license: License) => OutboxMessage | readonly OutboxMessage[]): Promise<SubscriptionSettlement> {
    return this.step(subscriptionId, at, deprovision, (children) => settleFromChildren(children));
  }

  cancel(
    subscriptionId: string,
    at: Date,
    deprovision: (license: License) => OutboxMessage | readonly OutboxMessage[],
    parent?: (subscription: Subscription) => readonly OutboxMessage[],
  ): Promise<SubscriptionSettlement> {
    return this.step(subscriptionId, at, deprovision, () => 'cancel', parent);
  }

  /**
   * One parent step under the parent's row lock: decide the event from the children,
   * move the parent if the state machine allows it, and on failure or cancel deactivate
   * the live children with their deprovision jobs, all in one transaction.
   */
  private step(
    subscriptionId: string,
    at: Date,
    deprovision: (license: License) => OutboxMessage | readonly OutboxMessage[],
    decide: (children: License[]) => SubscriptionEvent | undefined,
    parent?: (subscription: Subscription) => readonly OutboxMessage[],
  ): Promise<SubscriptionSettlement> {
    return this.db.transaction(async (trx) => {
      const row = await trx<SubscriptionRow>('hi_subscriptions').where({ id: subscriptionId }).forUpdate().first();
      if (!row) throw new Error(`no subscription ${subscriptionId}`);
      const children = (await trx<LicenseRow>('hi_licenses').where({ subscription_id: subscriptionId }).orderBy('seq')).map(licenseFromRow);
      const event = decide(children);
      const next = event ? nextSubscriptionStatus(row.status, event) : undefined;
      if (!event || !next) return { subscription: subscriptionFromRow(row), deactivated: [], changed: false };

      const columns: Record<string, unknown> = { status: next, updated_at: at };
      if (next === 'active') columns.activated_at = at;
      if (next === 'failed') Object.assign(columns, { failed_at: at, failure_reason: failureOf(children) });
      if (next === 'canceled') columns.canceled_at = at;
      const [updated] = await trx<SubscriptionRow>('hi_subscriptions').where({ id: subscriptionId }).update(columns).returning('*');

      let deactivated: License[] = [];
      if (next === 'failed' || next === 'canceled') deactivated = await deactivateLive(trx, subscriptionId, at);
      const subscription = subscriptionFromRow(updated as SubscriptionRow);
      await writeOutbox(trx, [...deactivated.flatMap(deprovision), ...(parent?.(subscription) ?? [])]);
      return { subscription, deactivated, changed: true };
    });
  }

  private async withLicenses(db: Knex, rows: SubscriptionRow[]): Promise<SubscriptionWithLicenses[]> {
    if (rows.length === 0) return [];
    const licenses = (
      await db<LicenseRow>('hi_licenses')
        .whereIn(
          'subscription_id',
          rows.map((r) => r.id),
        )
        .orderBy('seq')
    ).map(licenseFromRow);
    return rows.map((row) => ({
      subscription: subscriptionFromRow(row),
      licenses: licenses.filter((l) => l.source.type === 'package' && l.source.subscriptionId === row.id),
    }));
  }
}

async function deactivateLive(trx: Knex.Transaction, subscriptionId: string, at: Date): Promise<License[]> {
  const rows = await trx<LicenseRow>('hi_licenses')
    .where({ subscription_id: subscriptionId })
    .whereIn('status', LIVE_LICENSE_STATUSES)
    .update(licenseTransitionColumns('deactivated', at))
    .returning('*');
  return (rows as LicenseRow[]).map(licenseFromRow);
}

function failureOf(children: License[]): string {
  const failed = children.find((c) => c.status === 'failed');
  return failed ? `${failed.actionKey}: ${failed.failureReason ?? 'provisioning failed'}` : 'provisioning failed';
}
