/**
 * Checkr's webhooks: `X-Checkr-Signature` is the hex HMAC-SHA256 of the raw request body keyed
 * with the account's API key (docs.checkr.com/apis/webhooks). Compared in constant time over the
 * bytes as received, before anything is parsed. Checkr signs no timestamp: replays are stopped
 * by the receiver remembering each event id.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { invalid, type DomainError } from '../../kernel/errors';
import type { VendorEvent } from '../../features/hooks/domain/connectors';

export function checkrSignature(rawBody: Buffer | string, apiKey: string): string {
  return createHmac('sha256', apiKey).update(rawBody).digest('hex');
}

export function verifyCheckrWebhook(rawBody: Buffer, signature: string | undefined, apiKey: string): VendorEvent {
  if (!signature) throw signatureInvalid('the X-Checkr-Signature header is missing');
  const expected = Buffer.from(checkrSignature(rawBody, apiKey), 'hex');
  const given = /^[0-9a-fA-F]{64}$/.test(signature.trim()) ? Buffer.from(signature.trim(), 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw signatureInvalid('it does not match the body');
  let event: unknown;
  try {
    event = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw invalid('webhook_payload_invalid', 'The Checkr webhook body is not JSON');
  }
  const e = (event ?? {}) as { id?: unknown; type?: unknown; data?: { object?: unknown } };
  if (typeof e.id !== 'string' || !e.id || e.id.length > 100 || typeof e.type !== 'string' || !e.data || typeof e.data.object !== 'object' || !e.data.object)
    throw invalid('webhook_payload_invalid', 'The Checkr webhook is not an event (id, type, data.object)');
  return { id: e.id, type: e.type, object: e.data.object as Record<string, unknown> };
}

function signatureInvalid(why: string): DomainError {
  return invalid('webhook_signature_invalid', `The Checkr webhook signature did not verify: ${why}`);
}
