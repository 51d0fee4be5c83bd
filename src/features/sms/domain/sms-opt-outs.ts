/**
 * The numbers that stopped an organization's SMS (STOP and its siblings, or the carrier
 * telling us through Twilio's error 21610), and resumed them (START). Numbers are kept only
 * as HMACs of their E.164 form; a send to an opted-out number fails its run with
 * `recipient_opted_out` (final: retrying cannot change it) before anything leaves.
 */
import { createHmac } from 'node:crypto';
import { DomainError } from '../../../kernel/errors';

export interface SmsOptOutRepository {
  optOut(organizationId: string, phoneHash: string, keyword: string, source: string, at: Date): Promise<void>;
  optIn(organizationId: string, phoneHash: string): Promise<void>;
  isOptedOut(organizationId: string, phoneHash: string): Promise<boolean>;
}

export const SMS_OPT_OUT_REPOSITORY = Symbol('SmsOptOutRepository');
export const SMS_OPT_OUT_KEY = Symbol('SmsOptOutKey');

/** +1 (415) 555-0100 and +14155550100 are the same number. */
export const normalizePhone = (phone: string): string => {
  const digits = phone.replace(/[^\d+]/g, '');
  return digits.startsWith('+') ? digits : `+${digits}`;
};

export const hashPhone = (key: Buffer, phone: string): string =>
  createHmac('sha256', key)
    .update(`sms:${normalizePhone(phone)}`)
    .digest('hex');

export const recipientOptedOut = () =>
  new DomainError('conflict', 'recipient_opted_out', 'The recipient replied STOP to this organization: no SMS is sent to the number until it replies START');

export class SmsOptOuts {
  constructor(
    private readonly repository: SmsOptOutRepository,
    private readonly key: Buffer,
  ) {}

  stop(organizationId: string, phone: string, keyword: string, source: string, at: Date): Promise<void> {
    return this.repository.optOut(organizationId, hashPhone(this.key, phone), keyword, source, at);
  }

  resume(organizationId: string, phone: string): Promise<void> {
    return this.repository.optIn(organizationId, hashPhone(this.key, phone));
  }

  isOptedOut(organizationId: string, phone: string): Promise<boolean> {
    return this.repository.isOptedOut(organizationId, hashPhone(this.key, phone));
  }

  /** Throws `recipient_opted_out` for a stopped number. */
  async requireReachable(organizationId: string, phone: string): Promise<void> {
    if (await this.isOptedOut(organizationId, phone)) throw recipientOptedOut();
  }
}
