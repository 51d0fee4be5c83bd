/**
 * TOTP for `sms.two_factor_auth` (channel `totp`), with otplib (RFC 6238: HMAC-SHA1, six
 * digits, 30-second steps, ±1 step accepted): enrollment answers the `otpauth://` URI and
 * its QR code as SVG (the `qrcode` package) once, the secret is kept sealed; a check counts
 * every attempt atomically, refuses a code whose step was already used, and locks the factor
 * for ten minutes after five wrong codes in a row.
 */
import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';
import QRCode from 'qrcode';
import { notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import {
  TOTP_ENROLLMENT_MINUTES,
  TOTP_LOCK_MINUTES,
  TOTP_MAX_FAILED_ATTEMPTS,
  TOTP_PERIOD_SECONDS,
  TOTP_TOLERANCE_STEPS,
  type TotpFactor,
  type TotpFactorRepository,
} from './totp-factor';

export interface TotpEnrollment {
  factor: TotpFactor;
  /** Shown once, for typing into an app by hand (base32). */
  secret: string;
  uri: string;
  qrSvg: string;
}

export type TotpCheckStatus = 'approved' | 'pending' | 'max_attempts_reached';

const MINUTE = 60_000;

/** The code otplib derives for `secret` (base32 or raw bytes) at `epochSeconds`: what the RFC 6238 vectors check. */
export const totpCode = (secret: string | Uint8Array, epochSeconds: number, digits: 6 | 8 = 6): string =>
  generateSync({ secret, epoch: epochSeconds, digits, period: TOTP_PERIOD_SECONDS });

/** The step a code of `epochSeconds` belongs to, when it matches within the tolerance and after `afterStep`. */
export function matchingStep(secret: string, code: string, epochSeconds: number, afterStep: number | null): number | undefined {
  const result = verifySync({
    secret,
    token: code,
    epoch: epochSeconds,
    period: TOTP_PERIOD_SECONDS,
    epochTolerance: TOTP_TOLERANCE_STEPS * TOTP_PERIOD_SECONDS,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  return result.valid ? Math.floor(epochSeconds / TOTP_PERIOD_SECONDS) + result.delta : undefined;
}

export class TotpFactors {
  constructor(
    private readonly repository: TotpFactorRepository,
    private readonly hashIdentity: (identity: string) => string,
    private readonly now: () => Date,
  ) {}

  async enroll(organizationId: string, identity: string, issuer: string): Promise<TotpEnrollment> {
    const now = this.now();
    const secret = generateSecret();
    const factor: TotpFactor = {
      id: newId('totp'),
      organizationId,
      identityHash: this.hashIdentity(identity),
      status: 'unverified',
      failedAttempts: 0,
      lockedUntil: null,
      lastStep: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.repository.enroll(factor, secret);
    const uri = generateURI({ issuer, label: identity, secret, period: TOTP_PERIOD_SECONDS, digits: 6, algorithm: 'sha1' });
    const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { factor, secret, uri, qrSvg };
  }

  /** Checks a code of the identity's factor. */
  async check(organizationId: string, identity: string, code: string): Promise<{ factor: TotpFactor; status: TotpCheckStatus }> {
    const found = await this.repository.findByIdentity(organizationId, this.hashIdentity(identity));
    if (!found) throw notFound('TOTP factor');
    const now = this.now();
    const counted = await this.repository.countAttempt(organizationId, found.factor.id, now);
    if (!counted) return { factor: found.factor, status: 'max_attempts_reached' };
    const step = matchingStep(found.secret, code, Math.floor(now.getTime() / 1000), counted.lastStep);
    if (step !== undefined && (await this.repository.accept(organizationId, counted.id, step, now))) {
      return { factor: { ...counted, status: 'verified', failedAttempts: 0, lastStep: step }, status: 'approved' };
    }
    if (counted.failedAttempts >= TOTP_MAX_FAILED_ATTEMPTS) {
      const until = new Date(now.getTime() + TOTP_LOCK_MINUTES * MINUTE);
      await this.repository.lock(organizationId, counted.id, until);
      return { factor: { ...counted, lockedUntil: until }, status: 'max_attempts_reached' };
    }
    return { factor: counted, status: 'pending' };
  }

  async get(organizationId: string, id: string): Promise<TotpFactor> {
    const factor = await this.repository.get(organizationId, id);
    if (!factor) throw notFound('verification', id);
    return factor;
  }

  /** Whether an enrollment nobody confirmed has lapsed (shown as `expired`; its codes still prove the secret). */
  enrollmentLapsed(factor: TotpFactor): boolean {
    return factor.status === 'unverified' && this.enrollmentExpiry(factor).getTime() <= this.now().getTime();
  }

  /** When an unconfirmed enrollment is shown as expired (a verified factor does not expire). */
  enrollmentExpiry(factor: TotpFactor): Date {
    return new Date(factor.createdAt.getTime() + TOTP_ENROLLMENT_MINUTES * MINUTE);
  }
}
