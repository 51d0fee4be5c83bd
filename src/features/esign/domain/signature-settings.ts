/**
 * The organization's e-signature settings: the reminder schedule, and the signature level: PAdES-B-B by default, PAdES-B-T once it names an
 * RFC 3161 time-stamp authority. A TSA URL is saved only after it passed the destination
 * policy and answered a real time-stamp request (a URL that cannot time-stamp would otherwise
 * surface at the first signer's click). A change names only what changes.
 */
import { createHash } from 'node:crypto';
import { DomainError, isDomainError } from '../../../kernel/errors';
import type { DestinationPolicy } from '../../webhooks/domain/ports';
import type { EsignSettings, EsignSettingsRepository, TimestampAuthority } from './ports';
import type { ReminderSettings } from './reminder-schedule';

const PARAM = 'timestamp_authority_url';

const definedOnly = <T extends object>(value: T): Partial<T> => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

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

  /** Changes what is given: the time-stamp authority (checked by a real request), the reminder schedule (merged into the current one). */
  async update(organizationId: string, change: { timestampAuthorityUrl?: string | null; reminders?: Partial<ReminderSettings> }): Promise<EsignSettings> {
    const current = await this.settings.get(organizationId);
    const url = change.timestampAuthorityUrl === undefined ? current.timestampAuthorityUrl : change.timestampAuthorityUrl;
    if (change.timestampAuthorityUrl !== undefined && url !== null) {
      try {
        await this.policy.check(url);
        // A throwaway digest: the TSA must answer it with a token we would accept for a signature.
        await this.timestamps.timestamp(url, createHash('sha256').update(`tsa check ${organizationId} ${this.now().toISOString()}`).digest());
      } catch (error) {
        if (!isDomainError(error)) throw error;
        throw new DomainError('invalid', error.code, error.message, { param: PARAM });
      }
    }
    const reminders = { ...current.reminders, ...definedOnly(change.reminders ?? {}) };
    return this.settings.save(organizationId, { timestampAuthorityUrl: url, reminders }, this.now());
  }
}
