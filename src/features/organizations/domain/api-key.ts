/**
 * Organization API keys: `hik_<lookup>_<secret>`. The lookup part is stored in clear and
 * indexed so a key is found without scanning; the whole key is stored only as a SHA-256
 * digest (the secret carries 256 bits, so a slow hash buys nothing) and compared in
 * constant time.
 */
import { hash, timingSafeEqual } from 'node:crypto';
import { randomToken } from '../../../kernel/ids';

const KEY_PATTERN = /^hik_([0-9A-Za-z]{12})_([0-9A-Za-z]{43})$/;
const PREFIX_PATTERN = /^hik_([0-9A-Za-z]{12})$/;

export interface GeneratedApiKey {
  /** Shown once to the caller, never stored. */
  plaintext: string;
  /** `hik_<lookup>`: safe to show in listings and logs. */
  prefix: string;
  hash: string;
}

export function generateApiKey(): GeneratedApiKey {
  const prefix = `hik_${randomToken(12)}`;
  const plaintext = `${prefix}_${randomToken(43)}`;
  return { plaintext, prefix, hash: hashApiKey(plaintext) };
}

/** SHA-256 in hex; crypto.hash is the one-shot form (no Hash object per call: every request hashes its key). */
export function hashApiKey(plaintext: string): string {
  return hash('sha256', plaintext, 'hex');
}

/** The lookup prefix of a well-formed key, or undefined for anything else. */
export function apiKeyPrefix(plaintext: string): string | undefined {
  const match = KEY_PATTERN.exec(plaintext);
  return match ? `hik_${match[1]}` : undefined;
}

/** Accepts either a whole key or just its prefix (what an operator sees in a listing). */
export function parseKeyOrPrefix(value: string): string | undefined {
  return apiKeyPrefix(value) ?? (PREFIX_PATTERN.test(value) ? value : undefined);
}

export function apiKeyMatches(plaintext: string, storedHash: string): boolean {
  const given = hash('sha256', plaintext, 'buffer');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith('hik_');
}
