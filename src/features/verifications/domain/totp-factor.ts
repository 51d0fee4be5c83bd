/**
 * A TOTP factor (RFC 6238): a secret shared once with the person's authenticator app
 * (an `otpauth://` URI and its QR code), then proved by six-digit codes of 30-second steps.
 * `unverified` until the first good code; a code's step is never accepted twice.
 */
export type TotpFactorStatus = 'unverified' | 'verified';

export interface TotpFactor {
  id: string;
  organizationId: string;
  identityHash: string;
  status: TotpFactorStatus;
  failedAttempts: number;
  lockedUntil: Date | null;
  lastStep: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export const TOTP_PERIOD_SECONDS = 30;
/** Codes of the previous and the next step are accepted too (clock drift of an app). */
export const TOTP_TOLERANCE_STEPS = 1;
/** Wrong codes in a row before the factor is locked for TOTP_LOCK_MINUTES. */
export const TOTP_MAX_FAILED_ATTEMPTS = 5;
export const TOTP_LOCK_MINUTES = 10;
/** An enrollment nobody confirmed with a code within this time is replaced by the next one anyway; shown as its expiry. */
export const TOTP_ENROLLMENT_MINUTES = 10;

export interface TotpFactorRepository {
  /** Creates the identity's factor, replacing an earlier one (re-enrollment: the old app stops working). */
  enroll(factor: TotpFactor, secret: string): Promise<void>;
  findByIdentity(organizationId: string, identityHash: string): Promise<{ factor: TotpFactor; secret: string } | undefined>;
  get(organizationId: string, id: string): Promise<TotpFactor | undefined>;
  /** Counts a check attempt unless the factor is locked at `at`; the factor as it now stands, undefined when locked. */
  countAttempt(organizationId: string, id: string, at: Date): Promise<TotpFactor | undefined>;
  /** A good code of `step`: verified, attempts reset; false when that step (or a later one) was already used. */
  accept(organizationId: string, id: string, step: number, at: Date): Promise<boolean>;
  /** Locks the factor until `until` (the attempts ran out). */
  lock(organizationId: string, id: string, until: Date): Promise<void>;
}

export const TOTP_FACTOR_REPOSITORY = Symbol('TotpFactorRepository');
