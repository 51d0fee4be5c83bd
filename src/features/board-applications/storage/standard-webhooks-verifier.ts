/**
 * Board deliveries verified per Standard Webhooks with its reference implementation (the
 * `standardwebhooks` package, as our own webhooks are signed): `webhook-id`,
 * `webhook-timestamp` (within five minutes: an old delivery replayed is refused) and
 * `webhook-signature` (`v1,<base64 HMAC-SHA256 of id.timestamp.body>`, several allowed).
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { invalid } from '../../../kernel/errors';
import type { BoardSignatureVerifier } from '../domain/board-application';

const DELIVERY_ID = /^[\x21-\x7e]{1,255}$/;

export class StandardWebhooksVerifier implements BoardSignatureVerifier {
  newSecret(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }

  verify(secrets: readonly string[], body: Buffer, headers: Record<string, string | undefined>): string {
    const id = headers['webhook-id'];
    const timestamp = headers['webhook-timestamp'];
    const signature = headers['webhook-signature'];
    if (!id || !timestamp || !signature) {
      throw invalid('webhook_signature_missing', 'A board delivery needs the webhook-id, webhook-timestamp and webhook-signature headers');
    }
    if (!DELIVERY_ID.test(id)) throw invalid('webhook_id_invalid', 'webhook-id: 1–255 printable ASCII characters', 'webhook-id');
    let reason = 'webhook_signature_invalid';
    for (const secret of secrets) {
      try {
        // jsonParse false: the body is parsed by the caller after this (and may be any bytes here).
        new Webhook(secret).verify(body, { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature }, { jsonParse: false });
        return id;
      } catch (error) {
        if (/timestamp/i.test((error as Error).message)) reason = 'webhook_timestamp_out_of_range';
      }
    }
    if (reason === 'webhook_timestamp_out_of_range') {
      throw invalid(reason, 'webhook-timestamp is more than five minutes from now: an old delivery is not accepted again');
    }
    throw invalid(reason, 'The webhook signature did not verify with the organization’s board secret');
  }
}
