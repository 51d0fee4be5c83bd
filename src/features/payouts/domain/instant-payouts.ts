/**
 * Instant pay (`payouts.instant_pay`): a payout request (the API, or an approved timesheet's
 * total) pays a worker whose KYC is complete, in two action runs whose idempotency keys are
 * the payout's id: a transfer to the worker's account, then an instant payout from it. A
 * retried request resumes where the payout stopped and never moves money twice. A refusal
 * fails the payout with its code (`payout.failed`); an outage leaves it pending (503, retry
 * the same request). The provider's `payout.paid` / `payout.failed` webhooks settle it.
 */
import { conflict, isDomainError, notFound } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import { newId } from '../../../kernel/ids';
import type { Logger } from '../../../kernel/logger';
import type { ActionRunner } from '../../action-runs/domain/action-runner';
import { announce } from '../../hooks/domain/connector-handlers';
import type { PayoutConnector, PayoutProviderEvent } from '../../hooks/domain/connectors';
import { requireLicense, type PayoutsGate } from './license-check';
import { INSTANT_PAY_ACTION, type Payout, type PayoutChange, type PayoutRepository, type PayoutRequest } from './payout';
import { splitPayout } from './payout-amounts';
import type { PayoutWorkerRepository } from './payout-worker';

/** Where a provider's webhook came from: its connection, for the settlement run. */
export interface WebhookOrigin {
  connector: string;
  connectionId: string;
}

export class InstantPayouts {
  constructor(
    private readonly payouts: PayoutRepository,
    private readonly workers: PayoutWorkerRepository,
    private readonly port: PayoutConnector,
    private readonly runner: ActionRunner,
    private readonly gate: PayoutsGate,
    private readonly events: EventPublisher,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  async request(organizationId: string, request: PayoutRequest): Promise<Payout> {
    await requireLicense(this.gate, organizationId, INSTANT_PAY_ACTION);
    const worker = await this.workers.get(organizationId, request.workerId);
    if (!worker) throw notFound('worker', request.workerId);
    if (worker.kycStatus !== 'completed' || !worker.accountId)
      throw conflict('worker_kyc_incomplete', `The worker cannot be paid before KYC completes (kyc_status: ${worker.kycStatus})`, { param: 'worker_id' });
    const split = splitPayout(request.amount, request.feeBasisPoints);
    const currency = request.currency.toUpperCase();
    const now = this.now();
    const { payout, created } = await this.payouts.createOrGet({
      id: newId('pout'),
      organizationId,
      workerId: worker.id,
      reference: request.reference,
      source: request.source,
      amount: split.amount,
      fee: split.fee,
      currency,
      status: 'pending',
      transferId: null,
      transferRunId: null,
      providerPayoutId: null,
      payoutRunId: null,
      failureCode: null,
      failureMessage: null,
      livemode: true,
      createdAt: now,
      updatedAt: now,
    });
    if (!created && (payout.workerId !== worker.id || payout.amount !== split.amount || payout.fee !== split.fee || payout.currency !== currency))
      throw conflict('payout_reference_conflict', 'Another payout already holds this reference with a different worker, amount, fee or currency', {
        param: 'reference',
      });
    return this.advance(payout, worker.accountId);
  }

  async get(organizationId: string, id: string): Promise<Payout> {
    const found = await this.payouts.get(organizationId, id);
    if (!found) throw notFound('payout', id);
    return found;
  }

  /** A verified `payout.paid` / `payout.failed` for one of our payouts settles it once; others are ignored. */
  async applyPayoutEvent(organizationId: string, event: Extract<PayoutProviderEvent, { type: 'payout' }>, origin: WebhookOrigin): Promise<boolean> {
    // Our id travels in the payout's metadata; the provider's id finds payouts whose metadata was lost.
    const byOurs = event.payoutId ? await this.payouts.get(organizationId, event.payoutId) : undefined;
    const payout = byOurs ?? (await this.payouts.byProviderPayout(organizationId, event.providerPayoutId));
    if (!payout || payout.status === 'paid' || payout.status === 'failed') return Boolean(payout);
    const start = {
      organizationId,
      idempotencyKey: `payout-settled-${payout.id}`,
      action: INSTANT_PAY_ACTION,
      step: 'payouts',
      connector: origin.connector,
      connectionId: origin.connectionId,
      livemode: event.livemode,
    };
    if (event.status === 'paid') {
      await this.runner.perform(start, async () => ({ reference: event.providerPayoutId }));
      const paid = await this.change(payout, { status: 'paid', providerPayoutId: event.providerPayoutId });
      if (paid) await this.announcePaid(paid);
      return true;
    }
    const message =
      `The payout failed at the provider${event.failureCode ? ` (${event.failureCode})` : ''}${event.failureMessage ? `: ${event.failureMessage}` : ''}`.slice(
        0,
        300,
      );
    // The failure is the settlement run's outcome: the runs API shows it with its code.
    await this.runner
      .perform(start, () => Promise.reject(conflict('payout_failed', message, { provider_code: event.failureCode ?? null })))
      .catch(() => undefined);
    const failed = await this.change(payout, {
      status: 'failed',
      providerPayoutId: event.providerPayoutId,
      failureCode: 'payout_failed',
      failureMessage: message,
    });
    if (failed) await this.announceFailed(failed, event.failureCode);
    return true;
  }

  private async advance(payout: Payout, accountId: string): Promise<Payout> {
    let current = payout;
    const money = { organizationId: current.organizationId, actionKey: INSTANT_PAY_ACTION, accountId, currency: current.currency, payoutId: current.id };
    const net = current.amount - current.fee;
    if (current.status === 'pending') {
      try {
        const moved = await this.port.transfer!({ ...money, amount: net, idempotencyKey: `payout-transfer-${current.id}` });
        current =
          (await this.change(current, {
            status: 'transferred',
            transferId: moved.providerId,
            transferRunId: moved.deliveryId,
            livemode: moved.livemode ?? true,
          })) ?? (await this.get(current.organizationId, current.id));
      } catch (error) {
        return this.failOrRethrow(current, error);
      }
    }
    if (current.status === 'transferred') {
      try {
        const moved = await this.port.instantPayout!({ ...money, amount: net, idempotencyKey: `payout-instant-${current.id}` });
        const status = moved.status === 'paid' ? 'paid' : 'in_transit';
        const changed = await this.change(current, { status, providerPayoutId: moved.providerId, payoutRunId: moved.deliveryId });
        current = changed ?? (await this.get(current.organizationId, current.id));
        if (changed?.status === 'paid') await this.announcePaid(changed);
      } catch (error) {
        return this.failOrRethrow(current, error);
      }
    }
    return current;
  }

  /** An outage propagates (the payout stays where it was; the same request resumes it); a refusal fails the payout. */
  private async failOrRethrow(payout: Payout, error: unknown): Promise<Payout> {
    if (!isDomainError(error) || error.kind === 'upstream') throw error;
    const failed = await this.change(payout, { status: 'failed', failureCode: error.code, failureMessage: error.message.slice(0, 300) });
    if (failed) await this.announceFailed(failed, typeof error.details.stripe_code === 'string' ? error.details.stripe_code : undefined);
    return failed ?? (await this.get(payout.organizationId, payout.id));
  }

  private change(payout: Payout, change: PayoutChange): Promise<Payout | undefined> {
    return this.payouts.update(payout.organizationId, payout.id, change, this.now());
  }

  private view(payout: Payout) {
    return {
      payout_id: payout.id,
      worker_id: payout.workerId,
      reference: payout.reference,
      amount: payout.amount,
      fee: payout.fee,
      net: payout.amount - payout.fee,
      currency: payout.currency,
      provider_payout_id: payout.providerPayoutId,
      livemode: payout.livemode,
    };
  }

  private announcePaid(payout: Payout): Promise<void> {
    return announce(this.events, this.logger, 'payout.paid', payout.organizationId, this.view(payout), payout.id);
  }

  private announceFailed(payout: Payout, providerCode: string | undefined): Promise<void> {
    return announce(
      this.events,
      this.logger,
      'payout.failed',
      payout.organizationId,
      { ...this.view(payout), failure_code: payout.failureCode, provider_failure_code: providerCode ?? null },
      payout.id,
    );
  }
}
