/**
 * A verification: one code sent to one destination (`sms.two_factor_auth`), like Twilio
 * Verify. The destination and the code are stored only as HMACs (keys derived from
 * SECRET_KEY); the clear values exist in the request and the message, nowhere else.
 */
export type VerificationChannel = 'sms' | 'email';
export type VerificationStatus = 'pending' | 'approved' | 'canceled' | 'max_attempts_reached' | 'failed';
/** What a check answers; `expired` is computed from the clock, not stored. */
export type CheckStatus = 'approved' | 'pending' | 'expired' | 'max_attempts_reached';

export const VERIFICATION_ACTION = 'sms.two_factor_auth';
export const CODE_LIFETIME_MINUTES = 10;
export const MAX_CHECK_ATTEMPTS = 5;
/** Sends per destination within the window (Twilio Verify allows 5 per 10 minutes too). */
export const MAX_SENDS = 5;
export const SEND_WINDOW_MINUTES = 10;

export interface Verification {
  id: string;
  organizationId: string;
  channel: VerificationChannel;
  destinationHash: string;
  codeHash: string;
  status: VerificationStatus;
  attempts: number;
  runId: string | null;
  livemode: boolean;
  createdAt: Date;
  expiresAt: Date;
  updatedAt: Date;
}

export interface VerificationRepository {
  /** Creates the row and cancels the destination's earlier pending ones: only the newest code counts. */
  create(verification: Verification): Promise<void>;
  get(organizationId: string, id: string): Promise<Verification | undefined>;
  /** The destination's newest verification that was sent (not canceled by a newer one, not failed). */
  latest(organizationId: string, destinationHash: string): Promise<Verification | undefined>;
  /** Creation times of the destination's verifications since `since`, oldest first (the send rate limit). */
  sentSince(organizationId: string, destinationHash: string, since: Date): Promise<Date[]>;
  /** Counts one check attempt atomically while the row is pending; undefined when it no longer was. */
  countAttempt(organizationId: string, id: string, at: Date): Promise<Verification | undefined>;
  settle(organizationId: string, id: string, status: VerificationStatus, at: Date, sent?: { runId: string; livemode: boolean }): Promise<void>;
}

export const VERIFICATION_REPOSITORY = Symbol('VerificationRepository');
