/**
 * One SECRET_KEY, several independent keys: HKDF-SHA256 with a distinct `info` per
 * purpose, so the token-encryption key, the candidate-session signing key and the rest
 * never coincide, and learning one reveals nothing about the others.
 */
import { hkdfSync } from 'node:crypto';

export type KeyPurpose =
  | 'oauth-token-encryption'
  | 'webhook-secret-encryption'
  | 'candidate-session-signing'
  | 'connect-session-cookie'
  | 'sandbox-client-secret'
  | 'sandbox-token-signing'
  | 'connection-credentials-encryption'
  | 'candidate-export-links'
  | 'candidate-erasure-digest'
  | 'audit-pseudonyms'
  | 'message-links'
  | 'verification-codes'
  | 'verification-destinations'
  | 'scheduling-links'
  | 'credential-document-encryption'
  | 'job-distribution-sources'
  | 'sms-opt-out-destinations'
  | 'totp-secret-encryption'
  | 'shift-links'
  | 'board-application-secrets'
  | 'esign-links'
  | 'esign-certificate-encryption'
  | 'sourcing-invitations';

const SALT = Buffer.from('hiring-integrations/v1', 'utf8');

export function deriveKey(secret: Buffer, purpose: KeyPurpose, length = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, SALT, Buffer.from(purpose, 'utf8'), length));
}
