import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * CSPRNG bytes drawn from a pool refilled 4 KiB at a time (as Node's randomUUID does): one
 * call into OpenSSL per ~150 ids instead of one per id. Every byte is handed out once.
 */
const pool = Buffer.alloc(4096);
let next = pool.length;

function randomByte(): number {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  return pool[next++]!;
}

/** Random base62 string; rejection sampling keeps every character equally likely. */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export type IdPrefix =
  | 'org'
  | 'listing'
  | 'app'
  | 'lic'
  | 'sub'
  | 'pkg'
  | 'key'
  | 'req'
  | 'evt'
  | 'auth'
  | 'job'
  | 'we'
  | 'whd'
  | 'inv'
  | 'quote'
  | 'conn'
  | 'run'
  | 'cex'
  | 'cer'
  | 'hold'
  | 'hire'
  | 'cns'
  | 'aud'
  | 'ver'
  | 'bkg'
  | 'cdoc'
  | 'dch'
  | 'bgc'
  | 'hcred'
  | 'sreq'
  | 'plc'
  | 'tms'
  | 'cinv'
  | 'wkr'
  | 'pout'
  | 'totp'
  | 'shf'
  | 'jfeed'
  | 'jimp'
  | 'bsec'
  | 'pctr'
  | 'etpl'
  | 'env'
  | 'sinv'
  | 'role'
  | 'emp'
  | 'edoc'
  | 'pctr'
  | 'vhr'
  | 'vhc'
  | 'pchg';

/** Prefixed, random, URL-safe ids in Stripe's style: `app_3mZ8…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomToken(20)}`;
}

export function hasPrefix(value: unknown, prefix: string): value is string {
  return typeof value === 'string' && value.startsWith(`${prefix}_`) && /^[a-z]+_[0-9A-Za-z_-]{1,64}$/.test(value);
}
