/**
 * The official `stripe` client for one connection, and what Stripe's failures mean as stable
 * codes: a refused key is `connection_auth_failed` (final), a request Stripe refused
 * (card/invalid_request/idempotency) is `counterpart_rejected` (final, with Stripe's own
 * code), 429/5xx and network errors are retried (`counterpart_unavailable`,
 * `connection_unreachable`, with Stripe's Retry-After when it sent one). An organization's
 * connection talks to Stripe through the pinned network (Stripe's fetch HTTP client over it).
 */
import Stripe from 'stripe';
import { DomainError, upstream } from '../../kernel/errors';
import { destinationRefusedAtConnect, type ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import { isDestinationRefused } from '../../platform/network/pinned-network';
import type { StripeConnectCredentials, StripeConnectSettings } from './settings';

const TIMEOUT_MS = 10_000;

export function stripeClient(settings: StripeConnectSettings, credentials: StripeConnectCredentials, network?: ConnectorNetwork): Stripe {
  const url = new URL(settings.api_base_url);
  return new Stripe(credentials.secret_key, {
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    // Our action runs own retries (with backoff and a run history); the client must not retry behind them.
    maxNetworkRetries: 0,
    timeout: TIMEOUT_MS,
    telemetry: false,
    appInfo: { name: 'hiring-integrations' },
    ...(network ? { httpClient: Stripe.createFetchHttpClient(network.fetch) } : {}),
  });
}

export function stripeFailure(error: unknown, what: string): DomainError {
  if (isDestinationRefused(error)) return destinationRefusedAtConnect(error);
  if (!(error instanceof Stripe.errors.StripeError)) return upstream('connection_unreachable', `Stripe could not be reached for ${what}`);
  const status = error.statusCode;
  const detail = `${error.code ? ` (${error.code})` : ''}: ${error.message}`.slice(0, 300);
  if (error.type === 'StripeConnectionError') return upstream('connection_unreachable', `Stripe could not be reached for ${what}${detail}`);
  if (error.type === 'StripeAuthenticationError' || error.type === 'StripePermissionError' || status === 401 || status === 403)
    return new DomainError('conflict', 'connection_auth_failed', `Stripe refused the secret key for ${what}${detail}`);
  if (error.type === 'StripeRateLimitError' || status === 429 || (status !== undefined && status >= 500)) {
    const retryAfter = Number(error.headers?.['retry-after']);
    return upstream('counterpart_unavailable', `Stripe answered ${status ?? 'an error'} to ${what}${detail}`, {
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    });
  }
  return new DomainError('conflict', 'counterpart_rejected', `Stripe refused ${what}${detail}`, { stripe_code: error.code ?? error.type });
}
