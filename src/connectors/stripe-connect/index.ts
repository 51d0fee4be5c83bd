/** The `stripe-connect` connector: workers paid through the organization's Stripe Connect platform (Express accounts, hosted KYC onboarding). */
import { urlDestination } from '../../features/connections/domain/connection-destinations';
import type { ConnectorDefinition } from '../../features/connections/domain/connector-definition';
import { stripeConnectCredentials, stripeConnectSettings, type StripeConnectCredentials, type StripeConnectSettings } from './settings';
import { stripeClient, stripeFailure } from './stripe-client';
import { StripePayoutConnector } from './stripe-payout-connector';

export const stripeConnectConnector: ConnectorDefinition<'payouts', StripeConnectSettings, StripeConnectCredentials> = {
  key: 'stripe-connect',
  kind: 'payouts',
  description: 'Worker payouts through your Stripe Connect platform: an Express account per worker and hosted KYC onboarding',
  settings: stripeConnectSettings,
  credentials: stripeConnectCredentials,
  async test(settings, credentials, network) {
    // GET /v1/account: the platform's own account proves the key without touching any worker.
    try {
      const account = await stripeClient(settings, credentials, network).accounts.retrieveCurrent();
      if (typeof account?.id !== 'string')
        return { ok: false, code: 'connection_protocol_error', message: `${settings.api_base_url} answered /v1/account without an account id` };
      return { ok: true, detail: `Stripe accepted the key for platform account ${account.id}` };
    } catch (error) {
      const failure = stripeFailure(error, 'the platform account');
      return { ok: false, code: failure.code, message: failure.message };
    }
  },
  destinations: (s) => [urlDestination('settings.api_base_url', s.api_base_url)],
  open: (settings, credentials, context) => new StripePayoutConnector(settings, credentials, context?.network),
};
