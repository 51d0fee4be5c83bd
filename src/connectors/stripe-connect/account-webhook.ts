/**
 * Stripe's Connect webhooks, verified with the `stripe` package's own signature check
 * (HMAC-SHA256 over `t.payload`, 300 s tolerance against replays), reduced to what payouts
 * need: `account.updated` becomes the worker's KYC state, `payout.paid` / `payout.failed`
 * (sent for connected accounts, with `account`) the payout's outcome. A bad signature or a
 * stale timestamp is `webhook_signature_invalid`; any other event type is answered `null`
 * (acknowledged, nothing to do).
 */
import Stripe from 'stripe';
import { invalid, type DomainError } from '../../kernel/errors';
import type { PayoutProviderEvent } from '../../features/hooks/domain/connectors';

export type WorkerKycState = Omit<Extract<PayoutProviderEvent, { type: 'account' }>, 'type'>;

const TOLERANCE_SECONDS = 300;
// Verification needs no key: the client is only the carrier of the webhook helpers.
const verifier = new Stripe('sk_test_unused_for_webhook_verification');

export function verifyConnectEvent(
  rawBody: string | Buffer,
  signatureHeader: string | undefined,
  webhookSecret: string,
  nowSeconds?: number,
): PayoutProviderEvent | null {
  if (!signatureHeader) throw signatureInvalid('the Stripe-Signature header is missing');
  let event: Stripe.Event;
  try {
    event = verifier.webhooks.constructEvent(rawBody, signatureHeader, webhookSecret, TOLERANCE_SECONDS, undefined, nowSeconds);
  } catch (error) {
    throw signatureInvalid((error as Error).message.split('\n')[0]!.slice(0, 200));
  }
  if (event.type === 'account.updated') {
    const account = event.data.object;
    return {
      type: 'account',
      eventId: event.id,
      accountId: account.id,
      workerId: account.metadata?.worker_id,
      payoutsEnabled: account.payouts_enabled === true,
      currentlyDue: account.requirements?.currently_due ?? [],
      disabledReason: account.requirements?.disabled_reason ?? undefined,
      livemode: event.livemode,
      occurredAt: new Date(event.created * 1000),
    };
  }
  if (event.type === 'payout.paid' || event.type === 'payout.failed') {
    const payout = event.data.object;
    // A payout of the platform's own balance has no `account`: not a worker's, nothing to do.
    if (typeof event.account !== 'string') return null;
    return {
      type: 'payout',
      eventId: event.id,
      accountId: event.account,
      providerPayoutId: payout.id,
      payoutId: payout.metadata?.payout_id,
      status: event.type === 'payout.paid' ? 'paid' : 'failed',
      failureCode: payout.failure_code ?? undefined,
      failureMessage: payout.failure_message ?? undefined,
      livemode: event.livemode,
      occurredAt: new Date(event.created * 1000),
    };
  }
  return null;
}

/** `account.updated` only (the KYC state); any other verified event is null. */
export function verifyAccountUpdated(
  rawBody: string | Buffer,
  signatureHeader: string | undefined,
  webhookSecret: string,
  nowSeconds?: number,
): WorkerKycState | null {
  const event = verifyConnectEvent(rawBody, signatureHeader, webhookSecret, nowSeconds);
  if (event?.type !== 'account') return null;
  const { type: _type, ...state } = event;
  return state;
}

function signatureInvalid(why: string): DomainError {
  return invalid('webhook_signature_invalid', `The Stripe webhook signature did not verify: ${why}`);
}
