/**
 * Sends and checks verification codes. A send is gated by the `sms.two_factor_auth`
 * license, rate-limited per destination, and performed as an action run through the
 * organization's `sms` or `email` connector (succeeded only on the counterpart's
 * acknowledgment). A check compares HMACs in constant time and counts every attempt
 * atomically, so parallel guesses cannot exceed the five allowed.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { DomainError, isDomainError, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import type { Delivery, NotificationConnector, SmsConnector } from '../../hooks/domain/connectors';
import {
  CODE_LIFETIME_MINUTES,
  MAX_CHECK_ATTEMPTS,
  MAX_SENDS,
  SEND_WINDOW_MINUTES,
  VERIFICATION_ACTION,
  type CheckStatus,
  type Verification,
  type VerificationChannel,
  type VerificationRepository,
} from './verification';
import { verificationMessage } from './verification-messages';

export interface VerificationGate {
  allows(organizationId: string, actionKey: string): boolean | Promise<boolean>;
}

export interface VerificationKeys {
  code: Buffer;
  destination: Buffer;
}

export interface SendRequest {
  channel: VerificationChannel;
  to: string;
  locale?: string;
}

export interface CheckResult {
  verification: Verification;
  status: CheckStatus;
}

const MINUTE = 60_000;

/** E.164 without formatting for SMS, lower case for email: the same person hashes the same. */
export function normalizeDestination(channel: VerificationChannel | 'totp', to: string): string {
  return channel === 'sms' ? to.replace(/[\s().-]/g, '') : to.trim().toLowerCase();
}

/** HMAC of the normalized destination: what the table keeps instead of the phone number or address. */
export const hashDestination = (key: Buffer, channel: VerificationChannel | 'totp', to: string): string =>
  createHmac('sha256', key)
    .update(`${channel}:${normalizeDestination(channel, to)}`)
    .digest('hex');

export const channelOf = (to: string): VerificationChannel => (to.includes('@') ? 'email' : 'sms');

export class VerificationService {
  constructor(
    private readonly repository: VerificationRepository,
    private readonly ports: { sms: SmsConnector; email: NotificationConnector },
    private readonly gate: VerificationGate,
    private readonly keys: VerificationKeys,
    private readonly now: () => Date,
  ) {}

  destinationHash(channel: VerificationChannel, to: string): string {
    return hashDestination(this.keys.destination, channel, to);
  }

  async send(organizationId: string, request: SendRequest): Promise<Verification> {
    await this.requireLicense(organizationId);
    const now = this.now();
    const destinationHash = this.destinationHash(request.channel, request.to);
    const recent = await this.repository.sentSince(organizationId, destinationHash, new Date(now.getTime() - SEND_WINDOW_MINUTES * MINUTE));
    if (recent.length >= MAX_SENDS) {
      const freeAt = recent[recent.length - MAX_SENDS]!.getTime() + SEND_WINDOW_MINUTES * MINUTE;
      throw new DomainError('rate_limited', 'verification_rate_limited', `At most ${MAX_SENDS} codes per destination every ${SEND_WINDOW_MINUTES} minutes`, {
        retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)),
      });
    }
    const id = newId('ver');
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const verification: Verification = {
      id,
      organizationId,
      channel: request.channel,
      destinationHash,
      codeHash: this.codeHash(id, code),
      status: 'pending',
      attempts: 0,
      runId: null,
      livemode: true,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_LIFETIME_MINUTES * MINUTE),
      updatedAt: now,
    };
    // The row exists before the message leaves: a code that arrived can always be checked.
    await this.repository.create(verification);
    const message = verificationMessage(request.locale, code, CODE_LIFETIME_MINUTES);
    const base = { organizationId, actionKey: VERIFICATION_ACTION, idempotencyKey: `verification-${id}` };
    let delivery: Delivery;
    try {
      delivery =
        request.channel === 'sms'
          ? await this.ports.sms.sendSms({ ...base, to: normalizeDestination('sms', request.to), text: message.text })
          : await this.ports.email.sendEmail({
              ...base,
              to: { name: request.to, email: request.to.trim() },
              subject: message.subject,
              text: message.text,
              language: message.language,
            });
    } catch (error) {
      // Never `pending` for a code nobody received; the run says why (GET /v1/integrations/runs).
      await this.repository.settle(organizationId, id, 'failed', this.now());
      if (isDomainError(error) && error.kind === 'upstream')
        throw new DomainError('upstream', 'verification_not_sent', error.message, { retryAfterSeconds: 5 });
      throw error;
    }
    const sent = { runId: delivery.deliveryId, livemode: delivery.livemode ?? true };
    await this.repository.settle(organizationId, id, 'pending', this.now(), sent);
    return { ...verification, ...sent };
  }

  /** Checks against the destination's newest code; earlier ones were canceled when it was sent. */
  async check(organizationId: string, to: string, code: string): Promise<CheckResult> {
    await this.requireLicense(organizationId);
    const destinationHash = this.destinationHash(channelOf(to), to);
    const found = await this.repository.latest(organizationId, destinationHash);
    // An approved code is spent: like Twilio Verify, there is no pending verification to check.
    if (!found || found.status === 'approved') throw notFound('verification');
    if (found.status === 'max_attempts_reached') return { verification: found, status: 'max_attempts_reached' };
    const now = this.now();
    if (found.expiresAt.getTime() <= now.getTime()) return { verification: found, status: 'expired' };
    const counted = await this.repository.countAttempt(organizationId, found.id, now);
    if (!counted) return this.settledAnswer(organizationId, found.id);
    if (counted.attempts > MAX_CHECK_ATTEMPTS) return { verification: counted, status: 'max_attempts_reached' };
    if (this.matches(counted, code)) {
      await this.repository.settle(organizationId, counted.id, 'approved', now);
      return { verification: { ...counted, status: 'approved' }, status: 'approved' };
    }
    if (counted.attempts >= MAX_CHECK_ATTEMPTS) {
      await this.repository.settle(organizationId, counted.id, 'max_attempts_reached', now);
      return { verification: { ...counted, status: 'max_attempts_reached' }, status: 'max_attempts_reached' };
    }
    return { verification: counted, status: 'pending' };
  }

  async get(organizationId: string, id: string): Promise<Verification> {
    const found = await this.repository.get(organizationId, id);
    if (!found) throw notFound('verification', id);
    return found;
  }

  /** What a caller sees of a verification's status: `expired` once its code lapsed unused. */
  visibleStatus(verification: Verification): string {
    return verification.status === 'pending' && verification.expiresAt.getTime() <= this.now().getTime() ? 'expired' : verification.status;
  }

  private async settledAnswer(organizationId: string, id: string): Promise<CheckResult> {
    // Another check settled it between our read and our count.
    const now = await this.get(organizationId, id);
    const status: CheckStatus = now.status === 'approved' || now.status === 'max_attempts_reached' ? now.status : 'expired';
    return { verification: now, status };
  }

  private matches(verification: Verification, code: string): boolean {
    const expected = Buffer.from(verification.codeHash, 'hex');
    const given = Buffer.from(this.codeHash(verification.id, code), 'hex');
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private codeHash(id: string, code: string): string {
    return createHmac('sha256', this.keys.code).update(`${id}:${code}`).digest('hex');
  }

  async requireLicense(organizationId: string): Promise<void> {
    if (!(await this.gate.allows(organizationId, VERIFICATION_ACTION))) {
      throw new DomainError(
        'forbidden',
        'license_required',
        `The ${VERIFICATION_ACTION} license is not active for this organization (POST /v1/integrations/licenses/${VERIFICATION_ACTION}/activate)`,
        { action_key: VERIFICATION_ACTION },
      );
    }
  }
}
