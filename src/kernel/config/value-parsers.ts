/**
 * Parsers of the settings whose text carries structure (a key, a list, query parameters,
 * a JSON mapping). Each reports a problem on the zod context, so the schema names the
 * variable, and returns the value the plugin uses.
 */
import { z } from 'zod';
import { parseProfileMapping, ProfileMappingError, type ProfileMapping } from './profile-mapping';

type Ctx = z.RefinementCtx<string>;

function refuse(ctx: Ctx, message: string): never {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

/** 32+ bytes as hex (an even run of hex digits) or base64. */
export function decodeSecret(value: string): Buffer | undefined {
  const bytes = /^[0-9a-f]+$/i.test(value) && value.length % 2 === 0 ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  return bytes.length < 32 ? undefined : bytes;
}

export const SECRET_TOO_SHORT = 'must encode at least 32 bytes (64 hex characters)';

export function secretKey(value: string, ctx: Ctx): Buffer {
  return decodeSecret(value) ?? refuse(ctx, SECRET_TOO_SHORT);
}

export function operatorKey(value: string, ctx: Ctx): string {
  if (value.length < 24) return refuse(ctx, 'must be at least 24 characters');
  // Those prefixes mark organization keys and candidate tokens; such a value could never authenticate.
  if (/^hi[kc]_/.test(value)) return refuse(ctx, 'must not start with hik_ or hic_ (the prefixes of organization keys and candidate tokens)');
  return value;
}

/** Express's trust proxy: a hop count, or names and subnets. */
export function trustProxy(value: string): string | number {
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** Comma-separated host names, lower case. */
export function hostList(value: string): string[] {
  return value
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
}

/** Scopes separated by spaces or commas. */
export function scopeList(value: string): string[] {
  return value.split(/[\s,]+/).filter(Boolean);
}

/** Parameters the OAuth flow sets itself; an operator's extra parameter must not replace them. */
const PROTOCOL_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'state', 'code_challenge', 'code_challenge_method', 'scope', 'nonce'];

export function authorizeParams(value: string, ctx: Ctx): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, param] of new URLSearchParams(value)) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(key)) return refuse(ctx, `"${key}" is not a parameter name (use name=value&name=value)`);
    if (PROTOCOL_PARAMS.includes(key)) return refuse(ctx, `must not set ${key} (the OAuth flow sets it; scopes go in PROFILE_PROVIDER_SCOPES)`);
    params[key] = param;
  }
  return params;
}

export function profileMapping(value: string, ctx: Ctx): ProfileMapping {
  try {
    return parseProfileMapping(value);
  } catch (error) {
    if (error instanceof ProfileMappingError) return refuse(ctx, error.message);
    throw error;
  }
}
