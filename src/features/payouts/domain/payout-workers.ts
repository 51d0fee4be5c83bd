/**
 * Workers' KYC (`payouts.kyc_verification`): a worker gets a connected account at the
 * organization's payouts provider and a hosted onboarding link (returned, and sent by email or
 * SMS when asked), each step an action run; the provider's `account.updated` webhooks become the
 * worker's KYC state, announced as `worker.kyc_completed` / `worker.kyc_requirements_due`.
 */
import { conflict, notFound } from '../../../kernel/errors';
import type { EventPublisher } from '../../../kernel/events';
import { newId, randomToken } from '../../../kernel/ids';
import type { Logger } from '../../../kernel/logger';
import { announce } from '../../hooks/domain/connector-handlers';
import type { NotificationConnector, PayoutConnector, PayoutProviderEvent, SmsConnector } from '../../hooks/domain/connectors';
import { requireLicense, type PayoutsGate } from './license-check';
import { KYC_ACTION, kycStatusOf, type PayoutWorkerRecord, type PayoutWorkerRepository } from './payout-worker';

export type OnboardingChannel = 'email' | 'sms' | 'none';

export interface WorkerEnrollment {
  reference: string;
  email: string;
  phone?: string | undefined;
  country: string;
  /** How the link reaches the worker besides the answer: by email, by SMS (needs `phone`), or not at all. */
  send: OnboardingChannel;
}

export interface OnboardingLink {
  url: string;
  expiresAt: Date;
  runId: string;
  sentBy: OnboardingChannel;
  messageRunId: string | null;
}

export interface PayoutWorkersPorts {
  payouts: PayoutConnector;
  email: NotificationConnector;
  sms: SmsConnector;
}

export class PayoutWorkers {
  constructor(
    private readonly repository: PayoutWorkerRepository,
    private readonly ports: PayoutWorkersPorts,
    private readonly gate: PayoutsGate,
    private readonly events: EventPublisher,
    private readonly logger: Logger,
    private readonly now: () => Date,
  ) {}

  /** Creates the worker (or finds the one holding `reference`) and starts or resumes onboarding. */
  async enroll(organizationId: string, enrollment: WorkerEnrollment): Promise<{ worker: PayoutWorkerRecord; created: boolean; onboarding: OnboardingLink }> {
    await requireLicense(this.gate, organizationId, KYC_ACTION);
    if (enrollment.send === 'sms' && !enrollment.phone) throw conflict('phone_required', 'Sending the onboarding link by SMS needs the worker phone');
    const now = this.now();
    const { worker, created } = await this.repository.createOrGet({
      id: newId('wkr'),
      organizationId,
      reference: enrollment.reference,
      email: enrollment.email,
      phone: enrollment.phone ?? null,
      country: enrollment.country,
      accountId: null,
      kycStatus: 'pending',
      payoutsEnabled: false,
      requirementsDue: [],
      disabledReason: null,
      onboardingRunId: null,
      livemode: true,
      kycUpdatedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    const { worker: onboarded, onboarding } = await this.onboard(worker, enrollment.send);
    return { worker: onboarded, created, onboarding };
  }

  /**
   * A hire on a gig platform: the worker (reference = the candidate id) gets their account and
   * an onboarding link by email. A hire reported again finds the worker already onboarding and
   * sends nothing (a fresh link is POST /workers/{id}/onboarding_link); one whose earlier
   * attempt created no account (no connection yet) is onboarded now.
   */
  async enrollHire(
    organizationId: string,
    hire: { reference: string; email: string; phone?: string | undefined; country: string },
  ): Promise<{ worker: PayoutWorkerRecord; onboarding: OnboardingLink | null }> {
    await requireLicense(this.gate, organizationId, KYC_ACTION);
    const existing = await this.repository.byReference(organizationId, hire.reference);
    if (existing?.accountId) return { worker: existing, onboarding: null };
    const { worker, onboarding } = await this.enroll(organizationId, { ...hire, send: 'email' });
    return { worker, onboarding };
  }

  /** A fresh onboarding link for a worker whose link expired or was used (Stripe's links are single use). */
  async newOnboardingLink(
    organizationId: string,
    workerId: string,
    send: OnboardingChannel,
  ): Promise<{ worker: PayoutWorkerRecord; onboarding: OnboardingLink }> {
    // Another organization's worker is as unknown as a missing one, licensed or not.
    const worker = await this.get(organizationId, workerId);
    await requireLicense(this.gate, organizationId, KYC_ACTION);
    if (send === 'sms' && !worker.phone) throw conflict('phone_required', 'Sending the onboarding link by SMS needs the worker phone');
    return this.onboard(worker, send);
  }

  async get(organizationId: string, id: string): Promise<PayoutWorkerRecord> {
    const found = await this.repository.get(organizationId, id);
    if (!found) throw notFound('worker', id);
    return found;
  }

  list(organizationId: string, options: { limit: number; startingAfter?: string }): Promise<PayoutWorkerRecord[]> {
    return this.repository.list(organizationId, options);
  }

  /** A verified `account.updated`: the worker's KYC state, announced when it changes. Unknown accounts are ignored. */
  async applyAccountEvent(organizationId: string, event: Extract<PayoutProviderEvent, { type: 'account' }>): Promise<boolean> {
    const worker = await this.repository.byAccount(organizationId, event.accountId);
    if (!worker) return false;
    const applied = await this.repository.applyKyc(
      organizationId,
      worker.id,
      {
        status: kycStatusOf(event),
        payoutsEnabled: event.payoutsEnabled,
        requirementsDue: [...event.currentlyDue],
        disabledReason: event.disabledReason ?? null,
        occurredAt: event.occurredAt,
      },
      this.now(),
    );
    if (!applied) return true;
    const { before, after } = applied;
    const subject = { worker_id: after.id, reference: after.reference, account_id: after.accountId, livemode: event.livemode };
    if (after.kycStatus === 'completed' && before.kycStatus !== 'completed')
      await announce(this.events, this.logger, 'worker.kyc_completed', organizationId, subject, event.eventId);
    const newlyDue = after.requirementsDue.some((r) => !before.requirementsDue.includes(r));
    if (after.requirementsDue.length > 0 && (newlyDue || before.kycStatus === 'completed'))
      await announce(
        this.events,
        this.logger,
        'worker.kyc_requirements_due',
        organizationId,
        { ...subject, requirements_due: after.requirementsDue, disabled_reason: after.disabledReason },
        event.eventId,
      );
    return true;
  }

  private async onboard(worker: PayoutWorkerRecord, send: OnboardingChannel): Promise<{ worker: PayoutWorkerRecord; onboarding: OnboardingLink }> {
    // Each link is its own run; the account is created once (stored, and Stripe's Idempotency-Key per worker).
    const started = await this.ports.payouts.startOnboarding({
      organizationId: worker.organizationId,
      actionKey: KYC_ACTION,
      idempotencyKey: `payouts-onboarding-${worker.id}-${randomToken(12)}`,
      workerId: worker.id,
      email: worker.email,
      country: worker.country,
      ...(worker.accountId ? { accountId: worker.accountId } : {}),
    });
    const updated = await this.repository.recordOnboarding(
      worker.organizationId,
      worker.id,
      { accountId: started.accountId, runId: started.deliveryId, livemode: started.livemode ?? true },
      this.now(),
    );
    const messageRunId = await this.sendLink(updated, send, started.onboardingUrl, started.expiresAt);
    return {
      worker: updated,
      onboarding: { url: started.onboardingUrl, expiresAt: started.expiresAt, runId: started.deliveryId, sentBy: send, messageRunId },
    };
  }

  private async sendLink(worker: PayoutWorkerRecord, send: OnboardingChannel, url: string, expiresAt: Date): Promise<string | null> {
    if (send === 'none') return null;
    const text = `Set up your payouts: verify your identity and add where to be paid at ${url} (this link works once, until ${expiresAt.toISOString()}).`;
    const base = { organizationId: worker.organizationId, actionKey: KYC_ACTION, idempotencyKey: `payouts-onboarding-link-${worker.id}-${randomToken(12)}` };
    const delivery =
      send === 'sms'
        ? await this.ports.sms.sendSms({ ...base, to: worker.phone!, text })
        : await this.ports.email.sendEmail({ ...base, to: { name: worker.email, email: worker.email }, subject: 'Set up your payouts', text });
    return delivery.deliveryId;
  }
}
