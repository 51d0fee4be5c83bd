/**
 * The `source` parameter of a channel's tracked apply links: `<channel>.<signature>`, the
 * signature an HMAC-SHA256 (a key derived for this purpose) over the organization, the
 * listing and the channel, cut to 128 bits. It names the channel readably in analytics but
 * cannot be forged or moved to another listing or organization, so attribution counts only
 * links the plugin published.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ApplicationSources } from '../../applications/domain/application-source';
import { CHANNEL_NAME } from './channel';

export class SourceTokens implements ApplicationSources {
  constructor(private readonly key: Buffer) {}

  issue(organizationId: string, listingId: string, channel: string): string {
    return `${channel}.${this.signature(organizationId, listingId, channel).toString('base64url')}`;
  }

  channelOf(organizationId: string, listingId: string, token: string): string | undefined {
    const dot = token.indexOf('.');
    if (dot < 0) return undefined;
    const channel = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    if (!CHANNEL_NAME.test(channel) || given.length !== 16 || token.slice(dot + 1) !== given.toString('base64url')) return undefined;
    return timingSafeEqual(given, this.signature(organizationId, listingId, channel)) ? channel : undefined;
  }

  private signature(organizationId: string, listingId: string, channel: string): Buffer {
    return createHmac('sha256', this.key).update(`${organizationId}\n${listingId}\n${channel}`).digest().subarray(0, 16);
  }
}
