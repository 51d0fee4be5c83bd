/**
 * The payouts provider's webhooks, one endpoint per organization and connection: the
 * connection's own port verifies the signature (its signing secret) and reads the event,
 * which then goes to the worker (KYC) or the payout it concerns.
 */
import { notFound } from '../../../kernel/errors';
import type { PayoutConnector } from '../../hooks/domain/connectors';
import type { InstantPayouts } from './instant-payouts';
import type { PayoutWorkers } from './payout-workers';

/** The connection's own port and connector key, or undefined when the organization has no such payouts connection. */
export type PayoutConnectionPort = (organizationId: string, connectionId: string) => Promise<{ port: PayoutConnector; connector: string } | undefined>;

export interface WebhookOutcome {
  /** The event's type as we read it, or null for an event of no interest. */
  type: 'account' | 'payout' | null;
  /** Whether it concerned one of the organization's workers or payouts. */
  matched: boolean;
}

export class PayoutWebhooks {
  constructor(
    private readonly connectionPort: PayoutConnectionPort,
    private readonly workers: PayoutWorkers,
    private readonly payouts: InstantPayouts,
  ) {}

  async receive(organizationId: string, connectionId: string, rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
    const found = await this.connectionPort(organizationId, connectionId);
    if (!found?.port.readWebhook) throw notFound('connection', connectionId);
    const event = found.port.readWebhook(rawBody, signature);
    if (!event) return { type: null, matched: false };
    if (event.type === 'account') return { type: 'account', matched: await this.workers.applyAccountEvent(organizationId, event) };
    return { type: 'payout', matched: await this.payouts.applyPayoutEvent(organizationId, event, { connector: found.connector, connectionId }) };
  }
}
