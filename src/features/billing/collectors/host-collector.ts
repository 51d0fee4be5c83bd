/**
 * `host` collection (the default when a host embeds the plugin): the plugin finalizes
 * invoices and publishes `invoice.finalized`; the host collects with its own billing and
 * reports the outcome (operator calls under /v1/billing/operator, or the PluginInstance's
 * `reportInvoicePayment`). Nothing is charged here.
 */
import { conflict } from '../../../kernel/errors';
import type { CollectionOutcome, PaymentCollector } from '../domain/payment-collector';

export class HostPaymentCollector implements PaymentCollector {
  readonly mode = 'host' as const;
  readonly automatic = false;

  async collect(): Promise<CollectionOutcome> {
    throw conflict('collection_by_host', 'The host collects invoices (BILLING_COLLECTION=host)');
  }

  validatePaymentMethod(): void {
    throw conflict('collection_by_host', 'The host collects invoices (BILLING_COLLECTION=host); payment methods live with the host');
  }
}
