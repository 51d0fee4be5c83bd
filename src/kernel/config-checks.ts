/**
 * Ranges and URL schemes of the settings, checked by src/kernel/config.ts as each value is read,
 * so a value out of range (PORT=70000) or of the wrong kind (BASE_URL=ftp://x) stops the
 * process with a message naming the variable, instead of failing later and elsewhere.
 */
const HTTP = ['http:', 'https:'] as const;

export const INTEGER_RANGES: Record<string, { min: number; max: number }> = {
  PORT: { min: 0, max: 65535 },
  WORKER_HTTP_PORT: { min: 0, max: 65535 },
  DATABASE_POOL_MAX: { min: 1, max: 1000 },
  API_KEY_ROTATION_GRACE_SECONDS: { min: 0, max: 365 * 86400 },
  BODY_LIMIT_BYTES: { min: 1024, max: 100 * 1024 * 1024 },
  RATE_LIMIT_PER_MINUTE: { min: 0, max: 1_000_000 },
  RATE_LIMIT_PUBLIC_PER_MINUTE: { min: 0, max: 1_000_000 },
  RATE_LIMIT_CONNECT_PER_MINUTE: { min: 0, max: 1_000_000 },
  RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: { min: 0, max: 1_000_000 },
  WORKER_CONCURRENCY: { min: 1, max: 1000 },
  SHUTDOWN_TIMEOUT_SECONDS: { min: 1, max: 3600 },
  JOB_LOCK_DURATION_MS: { min: 100, max: 3_600_000 },
  JOB_STALLED_INTERVAL_MS: { min: 100, max: 3_600_000 },
  PROFILE_PROVIDER_TIMEOUT_MS: { min: 1, max: 600_000 },
  PROFILE_IMPORT_WAIT_MS: { min: 1, max: 600_000 },
  ENTITLEMENT_CACHE_TTL_SECONDS: { min: 1, max: 86_400 },
  REMINDER_LEAD_MINUTES: { min: 0, max: 7 * 24 * 60 },
};

export const URL_SCHEMES: Record<string, readonly string[]> = {
  BASE_URL: HTTP,
  CDN_URL: HTTP,
  SANDBOX_INTERNAL_URL: HTTP,
  PROFILE_PROVIDER_AUTHORIZE_URL: HTTP,
  PROFILE_PROVIDER_TOKEN_URL: HTTP,
  PROFILE_PROVIDER_PROFILE_URL: HTTP,
  DATABASE_URL: ['postgres:', 'postgresql:'],
  REDIS_URL: ['redis:', 'rediss:'],
};

/** Why `value` is out of range for `name`, or undefined when it is fine (or unchecked). */
export function integerProblem(name: string, value: number): string | undefined {
  const range = INTEGER_RANGES[name];
  if (!range || (value >= range.min && value <= range.max)) return undefined;
  return `must be between ${range.min} and ${range.max}, got ${value}`;
}

/** Why `url` has the wrong scheme (or no host) for `name`, or undefined. */
export function urlProblem(name: string, url: URL): string | undefined {
  const schemes = URL_SCHEMES[name];
  if (schemes && !schemes.includes(url.protocol)) return `must be a ${schemes.map((s) => s.slice(0, -1)).join(' or ')} URL, got ${url.protocol.slice(0, -1)}:`;
  if (schemes && !url.hostname) return 'must name a host';
  return undefined;
}
