/**
 * Twilio's request signature (https://www.twilio.com/docs/usage/webhooks/webhooks-security):
 * base64 HMAC-SHA1, keyed with the account's Auth Token, over the full URL Twilio requested
 * followed by every POST parameter as name + value, sorted by name. Hand-written rather than
 * the `twilio` package: that package brings an HTTP client, JWT and XML builders for these
 * dozen lines; the tests check it against the vectors Twilio publishes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function twilioSignature(authToken: string, url: string, params: Record<string, string | readonly string[]>): string {
  const data =
    url +
    Object.keys(params)
      .sort()
      .map((name) => {
        const value = params[name]!;
        // A repeated parameter signs each of its values, in order.
        return typeof value === 'string' ? name + value : [...value].map((v) => name + v).join('');
      })
      .join('');
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/** Constant-time comparison of the X-Twilio-Signature header with the signature of any of the URLs the callback may have been sent to. */
export function validTwilioSignature(authToken: string, header: string, urls: readonly string[], params: Record<string, string | readonly string[]>): boolean {
  const given = Buffer.from(header, 'utf8');
  return urls.some((url) => {
    const expected = Buffer.from(twilioSignature(authToken, url, params), 'utf8');
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
}

/** Where Twilio posts for one connection of one organization: `status` (delivery status callbacks) or `inbound` (incoming messages). */
export const twilioWebhookPath = (organizationId: string, connectionId: string, kind: 'status' | 'inbound') =>
  `/v1/sms/twilio/${encodeURIComponent(organizationId)}/${encodeURIComponent(connectionId)}/${kind}`;
