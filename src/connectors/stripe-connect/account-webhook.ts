/**
 * Stripe's `account.updated` webhook, verified with the `stripe` package's own signature check
 * (HMAC-SHA256 over `t.payload`, 300 s tolerance against replays), reduced to the worker's KYC
 * state. A bad signature or a stale timestamp is `webhook_signature_invalid`; any other event
 * type is answered `null` (acknowledged, nothing to do).
 */
import Stripe from 'stripe';
import { invalid, type DomainError } from '../../kernel/errors';

export interface WorkerKycState {
  eventId: string;
  accountId: string;
  workerId: string | undefined;
  payoutsEnabled: boolean;
  currentlyDue: string[];
  disabledReason: string | undefined;
  livemode: boolean;
}

const TOLERANCE_SECONDS = 300;
// Verification needs no key: the client is only the carrier of the webhook helpers.
const verifier = new Stripe('sk_test_unused_for_webhook_verification');

export function verifyAccountUpdated(
  rawBody: string | Buffer,
  signatureHeader: string | undefined,
  webhookSecret: string,
  nowSeconds?: number,
): WorkerKycState | null {
  if (!signatureHeader) throw signatureInvalid('the Stripe-Signature header is missing');
  let event: Stripe.Event;
  try {
    event = verifier.webhooks.constructEvent(rawBody, signatureHeader, webhookSecret, TOLERANCE_SECONDS, undefined, nowSeconds);
  } catch (error) {
    throw signatureInvalid((error as Error).message.split('\n')[0]!.slice(0, 200));
  }
  if (event.type !== 'account.updated') return null;
  const account = event.data.object;
  return {
    eventId: event.id,
    accountId: account.id,
    workerId: account.metadata?.worker_id,
    payoutsEnabled: account.payouts_enabled === true,
    currentlyDue: account.requirements?.currently_due ?? [],
    disabledReason: account.requirements?.disabled_reason ?? undefined,
    livemode: event.livemode,
  };
}

function signatureInvalid(why: string): DomainError {
  return invalid('webhook_signature_invalid', `The Stripe webhook signature did not verify: ${why}`);
}
