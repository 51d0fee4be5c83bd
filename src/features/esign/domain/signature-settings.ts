/**
 * The organization's signature level: PAdES-B-B by default, PAdES-B-T once it names an
 * RFC 3161 time-stamp authority. A TSA URL is saved only after it passed the destination
 * policy and answered a real time-stamp request (a URL that cannot time-stamp would otherwise
 * surface at the first signer's click).
 */
import { createHash } from 'node:crypto';
import { DomainError, isDomainError } from '../../../kernel/errors';
import type { DestinationPolicy } from '../../webhooks/domain/ports';
import type { EsignSettings, EsignSettingsRepository, TimestampAuthority } from './ports';

const PARAM = 'timestamp_authority_url';

export class SignatureSettings {
  constructor(
    private readonly settings: EsignSettingsRepository,
    private readonly policy: DestinationPolicy,
    private readonly timestamps: TimestampAuthority,
    private readonly now: () => Date,
  ) {}

  get(organizationId: string): Promise<EsignSettings> {
    return this.settings.get(organizationId);
  }

  async update(organizationId: string, change: { timestampAuthorityUrl: string | null }): Promise<EsignSettings> {
    const url = change.timestampAuthorityUrl;
    if (url !== null) {
      try {
        await this.policy.check(url);
        // A throwaway digest: the TSA must answer it with a token we would accept for a signature.
        await this.timestamps.timestamp(url, createHash('sha256').update(`tsa check ${organizationId} ${this.now().toISOString()}`).digest());
      } catch (error) {
        if (!isDomainError(error)) throw error;
        throw new DomainError('invalid', error.code, error.message, { param: PARAM });
      }
    }
    return this.settings.save(organizationId, { timestampAuthorityUrl: url }, this.now());
  }
}
