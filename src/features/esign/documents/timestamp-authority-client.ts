/**
 * Asks an RFC 3161 time-stamp authority over HTTP (RFC 3161 §3.4: POST
 * application/timestamp-query, answer application/timestamp-reply) under the webhooks'
 * destination policy (absolute http(s) URL, https in production, public addresses unless
 * allowed), checked before each request and again inside the connection's own DNS lookup
 * (DestinationFetch: a name that resolves inward by then, DNS rebinding, is refused at
 * connect); no redirects, the answer bounded in size and time.
 * Plain http is usual for TSAs: the token is signed, the transport adds nothing to it.
 */
import { isDomainError, upstream } from '../../../kernel/errors';
import type { DestinationFetch, DestinationPolicy } from '../../webhooks/domain/ports';
import { isDestinationRefused } from '../../../platform/network/pinned-network';
import type { TimestampAuthority } from '../domain/ports';
import { TimestampError, timestampRequest, timestampToken } from './rfc3161';

const TIMEOUT_MS = 15_000;
const MAX_ANSWER_BYTES = 64 * 1024;

export class HttpTimestampAuthority implements TimestampAuthority {
  constructor(
    private readonly policy: DestinationPolicy,
    private readonly userAgent: string,
    private readonly pinned: DestinationFetch,
  ) {}

  async timestamp(url: string, sha256: Buffer): Promise<{ token: Buffer; time: Date }> {
    try {
      await this.policy.check(url);
      const request = timestampRequest(sha256);
      let response: Response;
      try {
        response = await this.pinned.fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply', 'user-agent': this.userAgent },
          body: request.der,
          redirect: 'manual',
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        if (isDestinationRefused(error)) throw new TimestampError('timestamp_unavailable', `The time-stamp authority URL is refused: ${refusalOf(error)}`);
        throw new TimestampError('timestamp_unavailable', `The time-stamp authority could not be reached: ${(error as Error).message}`);
      }
      if (Number(response.headers.get('content-length') ?? 0) > MAX_ANSWER_BYTES) {
        await response.body?.cancel();
        throw new TimestampError('timestamp_invalid', `The time-stamp authority's answer is larger than ${MAX_ANSWER_BYTES} bytes`);
      }
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new TimestampError('timestamp_unavailable', `The time-stamp authority answered HTTP ${response.status}`);
      }
      const answer = Buffer.from(await response.arrayBuffer());
      if (answer.length > MAX_ANSWER_BYTES)
        throw new TimestampError('timestamp_invalid', `The time-stamp authority's answer is larger than ${MAX_ANSWER_BYTES} bytes`);
      return timestampToken(answer, sha256, request);
    } catch (error) {
      if (error instanceof TimestampError) throw upstream(error.code, error.message);
      // The URL refused by the destination policy (it was allowed when saved; DNS may say otherwise now).
      if (isDomainError(error)) throw upstream('timestamp_unavailable', `The time-stamp authority URL is refused: ${error.message}`);
      throw upstream('timestamp_unavailable', `The time-stamp authority failed: ${(error as Error).message}`);
    }
  }
}

/** The refusal's own words (fetch wraps it as its `cause`). */
const refusalOf = (error: unknown) => String((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message);
