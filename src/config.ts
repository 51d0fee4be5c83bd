/**
 * The one place that reads process.env. Every setting the plugin reads is declared
 * here (and mirrored in plugin.manifest.json's `config`, which a test keeps in step),
 * parsed once, and reported by name when it is wrong.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type SettingType = 'string' | 'url' | 'integer' | 'boolean' | 'enum';

export interface SettingSpec {
  env: string;
  type: SettingType;
  default?: string;
  secret: boolean;
  description: string;
  values?: readonly string[];
}

export const SETTINGS = [
  { env: 'NODE_ENV', type: 'enum', values: ['development', 'test', 'production'], default: 'development', secret: false, description: 'production refuses unsafe defaults (embedded database, generated secret, sandbox provider).' },
  { env: 'PORT', type: 'integer', default: '3000', secret: false, description: 'HTTP port of the standalone host.' },
  { env: 'HOST', type: 'string', default: '0.0.0.0', secret: false, description: 'Interface the standalone host listens on.' },
  { env: 'TRUST_PROXY', type: 'string', default: 'loopback', secret: false, description: 'Which proxies may set X-Forwarded-For (Express trust proxy: loopback, a subnet list, or a hop count). Client IPs drive per-IP rate limits.' },
  { env: 'BASE_URL', type: 'url', secret: false, description: 'Public base URL of the service. Default: http://localhost:$PORT.' },
  { env: 'CDN_URL', type: 'url', secret: false, description: 'Where the widget script is served from. Default: BASE_URL.' },
  { env: 'DATA_DIR', type: 'string', default: './.data', secret: false, description: 'Embedded mode: PGlite database folder and generated secret key.' },
  { env: 'DATABASE_URL', type: 'url', secret: true, description: 'PostgreSQL connection string. Unset: embedded PGlite under DATA_DIR.' },
  { env: 'DATABASE_POOL_MAX', type: 'integer', default: '10', secret: false, description: 'Maximum PostgreSQL connections per process.' },
  { env: 'REDIS_URL', type: 'url', secret: true, description: 'Redis connection string. Unset: jobs run in-process.' },
  { env: 'QUEUE_PREFIX', type: 'string', default: '{hiring-integrations}', secret: false, description: 'BullMQ key prefix; the braces are a Redis Cluster hash tag.' },
  { env: 'SECRET_KEY', type: 'string', secret: true, description: '32+ byte secret (hex or base64) that encrypts OAuth tokens and signs candidate sessions. Embedded mode generates one into DATA_DIR; required in production.' },
  { env: 'OPERATOR_API_KEY', type: 'string', secret: true, description: 'Credential for operator-only calls (catalog management, hooks, job dashboard). Unset: operator calls are refused.' },
  { env: 'API_KEY_ROTATION_GRACE_SECONDS', type: 'integer', default: '86400', secret: false, description: 'How long a rotated API key keeps working.' },
  { env: 'LOG_LEVEL', type: 'enum', values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info', secret: false, description: 'Minimum level of the JSON logs.' },
  { env: 'BODY_LIMIT_BYTES', type: 'integer', default: '65536', secret: false, description: 'Largest accepted request body; larger answers 413.' },
  { env: 'RATE_LIMIT_PER_MINUTE', type: 'integer', default: '600', secret: false, description: 'Requests per minute per API key (authenticated) or per IP (public).' },
  { env: 'WORKER_CONCURRENCY', type: 'integer', secret: false, description: 'Overrides every queue\'s default concurrency from the manifest.' },
  { env: 'WORKER_HTTP_PORT', type: 'integer', default: '3001', secret: false, description: 'Port of the worker role\'s GET /healthz, /readyz and /metrics; 0 turns it off.' },
  { env: 'SHUTDOWN_TIMEOUT_SECONDS', type: 'integer', default: '25', secret: false, description: 'On SIGTERM/SIGINT, how long in-flight requests and jobs may take to finish before the process exits 1.' },
  { env: 'JOB_LOCK_DURATION_MS', type: 'integer', default: '30000', secret: false, description: 'BullMQ job lock: a worker that stops renewing it for this long (crashed, killed) loses the job to another worker.' },
  { env: 'JOB_STALLED_INTERVAL_MS', type: 'integer', default: '30000', secret: false, description: 'How often each worker looks for jobs whose lock expired (stalled) and puts them back in the queue.' },
  { env: 'PROFILE_PROVIDER_AUTHORIZE_URL', type: 'url', secret: false, description: 'OAuth 2.0 authorize endpoint of the profile provider. Unset: the built-in sandbox provider.' },
  { env: 'PROFILE_PROVIDER_TOKEN_URL', type: 'url', secret: false, description: 'OAuth 2.0 token endpoint of the profile provider.' },
  { env: 'PROFILE_PROVIDER_PROFILE_URL', type: 'url', secret: false, description: 'Profile API endpoint (GET, bearer token) of the profile provider.' },
  { env: 'PROFILE_PROVIDER_CLIENT_ID', type: 'string', secret: false, description: 'OAuth client id at the profile provider.' },
  { env: 'PROFILE_PROVIDER_CLIENT_SECRET', type: 'string', secret: true, description: 'OAuth client secret at the profile provider.' },
  { env: 'PROFILE_PROVIDER_SCOPES', type: 'string', default: 'profile skills credentials experience', secret: false, description: 'Space-separated scopes requested from the profile provider.' },
  { env: 'SANDBOX_PROVIDER_ENABLED', type: 'boolean', secret: false, description: 'Serve the sandbox profile provider. Default: on unless NODE_ENV=production.' },
  { env: 'SANDBOX_INTERNAL_URL', type: 'url', secret: false, description: "Where servers (the API's token exchange, workers' profile imports) reach the sandbox provider's token and profile endpoints. Default: BASE_URL. The browser always uses BASE_URL." },
  { env: 'PROFILE_PROVIDER_TIMEOUT_MS', type: 'integer', default: '5000', secret: false, description: 'Deadline of each request to the profile provider (profile API, token endpoint); a timeout counts as an outage and is retried.' },
  { env: 'PROFILE_IMPORT_WAIT_MS', type: 'integer', default: '8000', secret: false, description: 'Longest the apply endpoint waits for an on-demand profile import (no fresh snapshot); past it, 503 provider_unavailable while the import finishes in the background.' },
  { env: 'ENTITLEMENT_CACHE_TTL_SECONDS', type: 'integer', default: '60', secret: false, description: 'Longest a process keeps a cached license answer for the hook gate; changes invalidate it at once (Redis pub/sub or in-process), the TTL bounds staleness if a message is lost.' },
  { env: 'REMINDER_LEAD_MINUTES', type: 'integer', default: '60', secret: false, description: 'How long before an interview its email and SMS reminders are sent (at once when that moment has passed).' },
  { env: 'RECONCILE_INTERVAL_SECONDS', type: 'integer', default: '60', secret: false, description: 'How often the reconciliation sweep looks for work whose effect is missing (undelivered applications, licenses still provisioning, reminders due but not sent).' },
  { env: 'RECONCILE_AFTER_SECONDS', type: 'integer', default: '600', secret: false, description: 'The sweep\'s bound: work whose effect is still missing this long after it was written (or due) is enqueued again. Longer than the job retry schedules.' },
] as const satisfies readonly SettingSpec[];

export interface ProfileProviderConfig {
  authorizeUrl: string;
  tokenUrl: string;
  profileUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  host: string;
  trustProxy: string | number;
  baseUrl: string;
  cdnUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  redisUrl: string | undefined;
  queuePrefix: string;
  secretKey: Buffer;
  operatorApiKey: string | undefined;
  apiKeyRotationGraceSeconds: number;
  logLevel: string;
  bodyLimitBytes: number;
  rateLimitPerMinute: number;
  workerConcurrency: number | undefined;
  workerHttpPort: number;
  shutdownTimeoutSeconds: number;
  /** BullMQ worker lock and stalled-job check (crash recovery). */
  jobLockDurationMs: number;
  jobStalledIntervalMs: number;
  profileProvider: ProfileProviderConfig | undefined;
  sandboxProviderEnabled: boolean;
  /** Server-to-server address of the sandbox provider (default: baseUrl). */
  sandboxInternalUrl: string;
  profileProviderTimeoutMs: number;
  profileImportWaitMs: number;
  /** Hook gate: entitlement cache TTL, and how early interview reminders go out. */
  entitlementCacheTtlSeconds: number;
  reminderLeadMinutes: number;
  /** Reconciliation sweep: how often it runs, and how old missing work must be before it acts. */
  reconcileIntervalSeconds: number;
  reconcileAfterSeconds: number;
}

export class ConfigError extends Error {
  constructor(readonly env: string, message: string) {
    super(`${env}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value !== undefined && value.trim() !== '') return value.trim();
  const spec = (SETTINGS as readonly SettingSpec[]).find((s) => s.env === name);
  return spec?.default;
}

function integer(env: Env, name: string): number | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new ConfigError(name, `must be a non-negative integer, got "${value}"`);
  return Number(value);
}

function positive(env: Env, name: string): number {
  const value = integer(env, name)!;
  if (value < 1) throw new ConfigError(name, 'must be at least 1');
  return value;
}

function boolean(env: Env, name: string): boolean | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new ConfigError(name, `must be true or false, got "${value}"`);
}

function url(env: Env, name: string): string | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  try {
    new URL(value);
  } catch {
    throw new ConfigError(name, 'must be an absolute URL');
  }
  return value.replace(/\/+$/, '');
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[]): T {
  const value = raw(env, name) as T;
  if (!values.includes(value)) throw new ConfigError(name, `must be one of ${values.join(', ')}, got "${value}"`);
  return value;
}

function decodeSecret(name: string, value: string): Buffer {
  const bytes = /^[0-9a-f]+$/i.test(value) && value.length % 2 === 0 ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (bytes.length < 32) throw new ConfigError(name, 'must encode at least 32 bytes (64 hex characters)');
  return bytes;
}

/** Embedded mode keeps a generated secret beside its database, so tokens survive restarts. */
function embeddedSecret(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  return decodeSecret('SECRET_KEY', readFileSync(file, 'utf8').trim());
}

function profileProvider(env: Env): ProfileProviderConfig | undefined {
  const authorizeUrl = url(env, 'PROFILE_PROVIDER_AUTHORIZE_URL');
  if (!authorizeUrl) return undefined;
  const required = (name: string, value: string | undefined): string => {
    if (!value) throw new ConfigError(name, 'is required when PROFILE_PROVIDER_AUTHORIZE_URL is set');
    return value;
  };
  return {
    authorizeUrl,
    tokenUrl: required('PROFILE_PROVIDER_TOKEN_URL', url(env, 'PROFILE_PROVIDER_TOKEN_URL')),
    profileUrl: required('PROFILE_PROVIDER_PROFILE_URL', url(env, 'PROFILE_PROVIDER_PROFILE_URL')),
    clientId: required('PROFILE_PROVIDER_CLIENT_ID', raw(env, 'PROFILE_PROVIDER_CLIENT_ID')),
    clientSecret: required('PROFILE_PROVIDER_CLIENT_SECRET', raw(env, 'PROFILE_PROVIDER_CLIENT_SECRET')),
    scopes: (raw(env, 'PROFILE_PROVIDER_SCOPES') ?? '').split(/\s+/).filter(Boolean),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const mode = oneOf(env, 'NODE_ENV', ['development', 'test', 'production'] as const);
  const production = mode === 'production';
  const port = integer(env, 'PORT')!;
  const baseUrl = url(env, 'BASE_URL') ?? `http://localhost:${port}`;
  const dataDir = path.resolve(raw(env, 'DATA_DIR')!);
  const databaseUrl = url(env, 'DATABASE_URL');
  const redisUrl = url(env, 'REDIS_URL');
  const secret = raw(env, 'SECRET_KEY');
  const provider = profileProvider(env);
  const sandboxProviderEnabled = boolean(env, 'SANDBOX_PROVIDER_ENABLED') ?? !production;

  if (production) {
    if (!databaseUrl) throw new ConfigError('DATABASE_URL', 'is required in production (the embedded database is for development)');
    if (!secret) throw new ConfigError('SECRET_KEY', 'is required in production');
    if (!env.BASE_URL) throw new ConfigError('BASE_URL', 'is required in production');
    if (!provider && !sandboxProviderEnabled) {
      throw new ConfigError('PROFILE_PROVIDER_AUTHORIZE_URL', 'is required in production unless SANDBOX_PROVIDER_ENABLED=true');
    }
  }

  const operatorApiKey = raw(env, 'OPERATOR_API_KEY');
  if (operatorApiKey !== undefined && operatorApiKey.length < 24) {
    throw new ConfigError('OPERATOR_API_KEY', 'must be at least 24 characters');
  }
  // Those prefixes mark organization keys and candidate tokens; such a value could never authenticate.
  if (operatorApiKey !== undefined && /^hi[kc]_/.test(operatorApiKey)) {
    throw new ConfigError('OPERATOR_API_KEY', 'must not start with hik_ or hic_ (the prefixes of organization keys and candidate tokens)');
  }

  return {
    env: mode,
    port,
    host: raw(env, 'HOST')!,
    trustProxy: /^\d+$/.test(raw(env, 'TRUST_PROXY')!) ? Number(raw(env, 'TRUST_PROXY')) : raw(env, 'TRUST_PROXY')!,
    baseUrl,
    cdnUrl: url(env, 'CDN_URL') ?? baseUrl,
    dataDir,
    databaseUrl,
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX')!,
    redisUrl,
    queuePrefix: raw(env, 'QUEUE_PREFIX')!,
    secretKey: secret ? decodeSecret('SECRET_KEY', secret) : embeddedSecret(dataDir),
    operatorApiKey,
    apiKeyRotationGraceSeconds: integer(env, 'API_KEY_ROTATION_GRACE_SECONDS')!,
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES')!,
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE')!,
    workerConcurrency: integer(env, 'WORKER_CONCURRENCY'),
    workerHttpPort: integer(env, 'WORKER_HTTP_PORT')!,
    shutdownTimeoutSeconds: integer(env, 'SHUTDOWN_TIMEOUT_SECONDS')!,
    jobLockDurationMs: positive(env, 'JOB_LOCK_DURATION_MS'),
    jobStalledIntervalMs: positive(env, 'JOB_STALLED_INTERVAL_MS'),
    profileProvider: provider,
    sandboxProviderEnabled,
    sandboxInternalUrl: (url(env, 'SANDBOX_INTERNAL_URL') ?? baseUrl).replace(/\/+$/, ''),
    profileProviderTimeoutMs: integer(env, 'PROFILE_PROVIDER_TIMEOUT_MS')!,
    profileImportWaitMs: positive(env, 'PROFILE_IMPORT_WAIT_MS'),
    entitlementCacheTtlSeconds: positive(env, 'ENTITLEMENT_CACHE_TTL_SECONDS'),
    reminderLeadMinutes: integer(env, 'REMINDER_LEAD_MINUTES')!,
    reconcileIntervalSeconds: positive(env, 'RECONCILE_INTERVAL_SECONDS'),
    reconcileAfterSeconds: positive(env, 'RECONCILE_AFTER_SECONDS'),
  };
}
