/**
 * The one place that reads process.env. Every setting the plugin reads is declared
 * here (and mirrored in plugin.manifest.json's `config`, which a test keeps in step),
 * parsed once, and reported by name when it is wrong.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseProfileMapping, ProfileMappingError, type ProfileMapping } from './profile-mapping';
import { integerProblem, urlProblem } from './config-checks';

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
  {
    env: 'NODE_ENV',
    type: 'enum',
    values: ['development', 'test', 'production'],
    default: 'development',
    secret: false,
    description: 'production refuses unsafe defaults (embedded database, generated secret, sandbox provider).',
  },
  { env: 'PORT', type: 'integer', default: '3000', secret: false, description: 'HTTP port of the standalone host.' },
  { env: 'HOST', type: 'string', default: '0.0.0.0', secret: false, description: 'Interface the standalone host listens on.' },
  {
    env: 'TRUST_PROXY',
    type: 'string',
    default: 'loopback',
    secret: false,
    description: 'Which proxies may set X-Forwarded-For (Express trust proxy: loopback, a subnet list, or a hop count). Client IPs drive per-IP rate limits.',
  },
  { env: 'BASE_URL', type: 'url', secret: false, description: 'Public base URL of the service. Default: http://localhost:$PORT.' },
  { env: 'CDN_URL', type: 'url', secret: false, description: 'Where the widget script is served from. Default: BASE_URL.' },
  { env: 'DATA_DIR', type: 'string', default: './.data', secret: false, description: 'Embedded mode: PGlite database folder and generated secret key.' },
  { env: 'DATABASE_URL', type: 'url', secret: true, description: 'PostgreSQL connection string. Unset: embedded PGlite under DATA_DIR.' },
  { env: 'DATABASE_POOL_MAX', type: 'integer', default: '10', secret: false, description: 'Maximum PostgreSQL connections per process.' },
  { env: 'REDIS_URL', type: 'url', secret: true, description: 'Redis connection string. Unset: jobs run in-process.' },
  {
    env: 'REDIS_CLUSTER',
    type: 'boolean',
    secret: false,
    description:
      'REDIS_URL names one node of a Redis Cluster (a seed; the others are discovered from it; its credentials and TLS apply to every node). QUEUE_PREFIX must then be a hash tag ({…}). Default: false.',
  },
  {
    env: 'QUEUE_PREFIX',
    type: 'string',
    default: '{hiring-integrations}',
    secret: false,
    description: 'BullMQ key prefix; the braces are a Redis Cluster hash tag.',
  },
  {
    env: 'SECRET_KEY',
    type: 'string',
    secret: true,
    description:
      '32+ byte secret (hex or base64) that encrypts OAuth tokens and signs candidate sessions. Embedded mode generates one into DATA_DIR; required in production.',
  },
  {
    env: 'OPERATOR_API_KEY',
    type: 'string',
    secret: true,
    description: 'Credential for operator-only calls (catalog management, hooks, job dashboard). Unset: operator calls are refused.',
  },
  { env: 'API_KEY_ROTATION_GRACE_SECONDS', type: 'integer', default: '86400', secret: false, description: 'How long a rotated API key keeps working.' },
  {
    env: 'LOG_LEVEL',
    type: 'enum',
    values: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
    secret: false,
    description: 'Minimum level of the JSON logs.',
  },
  { env: 'BODY_LIMIT_BYTES', type: 'integer', default: '65536', secret: false, description: 'Largest accepted request body; larger answers 413.' },
  {
    env: 'RATE_LIMIT_PER_MINUTE',
    type: 'integer',
    default: '600',
    secret: false,
    description: 'Requests per minute per organization (API keys, candidate sessions); 0 turns every rate limit off.',
  },
  {
    env: 'RATE_LIMIT_PUBLIC_PER_MINUTE',
    type: 'integer',
    default: '300',
    secret: false,
    description:
      "Requests per minute per client IP to public endpoints (the widget's listing read, CORS preflights, the sandbox provider); never health checks.",
  },
  {
    env: 'RATE_LIMIT_CONNECT_PER_MINUTE',
    type: 'integer',
    default: '60',
    secret: false,
    description: 'Connect popup pages (start and callback) per minute per client IP.',
  },
  {
    env: 'RATE_LIMIT_AUTH_FAILURES_PER_MINUTE',
    type: 'integer',
    default: '30',
    secret: false,
    description:
      'Failed authentications per minute per client IP and per API key prefix; past it every credential check of that IP or key answers 429, even with a correct key.',
  },
  { env: 'WORKER_CONCURRENCY', type: 'integer', secret: false, description: "Overrides every queue's default concurrency from the manifest." },
  {
    env: 'WORKER_HTTP_PORT',
    type: 'integer',
    default: '3001',
    secret: false,
    description: "Port of the worker role's GET /healthz, /readyz and /metrics; 0 turns it off.",
  },
  {
    env: 'SHUTDOWN_TIMEOUT_SECONDS',
    type: 'integer',
    default: '25',
    secret: false,
    description: 'On SIGTERM/SIGINT, how long in-flight requests and jobs may take to finish before the process exits 1.',
  },
  {
    env: 'JOB_LOCK_DURATION_MS',
    type: 'integer',
    default: '30000',
    secret: false,
    description: 'BullMQ job lock: a worker that stops renewing it for this long (crashed, killed) loses the job to another worker.',
  },
  {
    env: 'JOB_STALLED_INTERVAL_MS',
    type: 'integer',
    default: '30000',
    secret: false,
    description: 'How often each worker looks for jobs whose lock expired (stalled) and puts them back in the queue.',
  },
  {
    env: 'PROFILE_PROVIDER_ISSUER',
    type: 'url',
    secret: false,
    description:
      'Issuer URL of an OpenID Connect provider: the authorize and token endpoints (and, unless PROFILE_PROVIDER_PROFILE_URL is set, the userinfo endpoint as profile API) are read from its /.well-known/openid-configuration. An alternative to the three endpoint URLs. With the userinfo endpoint, "openid" is always requested (scopes default to "openid profile") and, unless PROFILE_PROVIDER_PROFILE_MAPPING says otherwise, the standard claims are read: sub (the candidate), name, profile (the profile URL).',
  },
  {
    env: 'PROFILE_PROVIDER_AUTHORIZE_URL',
    type: 'url',
    secret: false,
    description: 'OAuth 2.0 authorize endpoint of the profile provider. Unset (and no PROFILE_PROVIDER_ISSUER): the built-in sandbox provider.',
  },
  { env: 'PROFILE_PROVIDER_TOKEN_URL', type: 'url', secret: false, description: 'OAuth 2.0 token endpoint of the profile provider.' },
  { env: 'PROFILE_PROVIDER_PROFILE_URL', type: 'url', secret: false, description: 'Profile API endpoint (GET, bearer token) of the profile provider.' },
  { env: 'PROFILE_PROVIDER_CLIENT_ID', type: 'string', secret: false, description: 'OAuth client id at the profile provider.' },
  { env: 'PROFILE_PROVIDER_CLIENT_SECRET', type: 'string', secret: true, description: 'OAuth client secret at the profile provider.' },
  {
    env: 'PROFILE_PROVIDER_TOKEN_AUTH_METHOD',
    type: 'enum',
    values: ['client_secret_basic', 'client_secret_post'],
    default: 'client_secret_basic',
    secret: false,
    description:
      'How the client authenticates at the token endpoint (code exchange and refresh): HTTP Basic (the OAuth 2.0 default) or client_id and client_secret in the form body.',
  },
  {
    env: 'PROFILE_PROVIDER_SCOPES',
    type: 'string',
    default: 'profile skills credentials experience',
    secret: false,
    description: 'Scopes requested from the profile provider, separated by spaces or commas (e.g. "openid profile offline_access").',
  },
  {
    env: 'PROFILE_PROVIDER_SCOPE_DELIMITER',
    type: 'enum',
    values: ['space', 'comma', 'plus'],
    default: 'space',
    secret: false,
    description: 'How the scopes are joined in the authorize request (space per RFC 6749; some providers want commas).',
  },
  {
    env: 'PROFILE_PROVIDER_AUTHORIZE_PARAMS',
    type: 'string',
    secret: false,
    description:
      'Extra authorize request parameters in query-string form, e.g. "prompt=consent&access_type=offline" (what some providers need to issue a refresh token). OAuth protocol parameters (client_id, redirect_uri, state, …) are refused.',
  },
  {
    env: 'PROFILE_PROVIDER_PROFILE_MAPPING',
    type: 'string',
    secret: false,
    description:
      'JSON: where the profile API answer keeps each field, for a provider whose JSON differs from ours, e.g. {"id":"user.id","skills":{"path":"expertise","name":"label"}}. Unset: our shape. See README (Profile provider).',
  },
  {
    env: 'SANDBOX_PROVIDER_ENABLED',
    type: 'boolean',
    secret: false,
    description: 'Serve the sandbox profile provider. Default: on unless NODE_ENV=production.',
  },
  {
    env: 'SANDBOX_INTERNAL_URL',
    type: 'url',
    secret: false,
    description:
      "Where servers (the API's token exchange, workers' profile imports) reach the sandbox provider's token and profile endpoints. Default: BASE_URL. The browser always uses BASE_URL.",
  },
  {
    env: 'PROFILE_PROVIDER_TIMEOUT_MS',
    type: 'integer',
    default: '5000',
    secret: false,
    description: 'Deadline of each request to the profile provider (profile API, token endpoint); a timeout counts as an outage and is retried.',
  },
  {
    env: 'PROFILE_IMPORT_WAIT_MS',
    type: 'integer',
    default: '8000',
    secret: false,
    description:
      'Longest the apply endpoint waits for an on-demand profile import (no fresh snapshot); past it, 503 provider_unavailable while the import finishes in the background.',
  },
  {
    env: 'ENTITLEMENT_CACHE_TTL_SECONDS',
    type: 'integer',
    default: '60',
    secret: false,
    description:
      'Longest a process keeps a cached license answer for the hook gate; changes invalidate it at once (Redis pub/sub or in-process), the TTL bounds staleness if a message is lost.',
  },
  {
    env: 'DEMO_ENABLED',
    type: 'boolean',
    secret: false,
    description:
      '`serve` seeds the demo organization and serves /demo and /demo/pipeline. Default: on in embedded mode, off on PostgreSQL (or `serve --demo`); never in production.',
  },
  {
    env: 'REMINDER_LEAD_MINUTES',
    type: 'integer',
    default: '60',
    secret: false,
    description: 'How long before an interview its email and SMS reminders are sent (at once when that moment has passed).',
  },
  {
    env: 'SMTP_URL',
    type: 'url',
    secret: true,
    description:
      "Deployment default email connection for every organization without its own (e.g. the ATS's relay): smtp://user:pass@host:587 (STARTTLS required), smtps://…:465 (TLS), ?security=none for a local relay. Unset: none.",
  },
  {
    env: 'SMTP_FROM',
    type: 'string',
    secret: false,
    description: 'Sender address of the SMTP_URL connection (required with it), e.g. "Hiring <jobs@example.com>" or jobs@example.com.',
  },
  {
    env: 'WEBHOOK_TIMEOUT_MS',
    type: 'integer',
    default: '10000',
    secret: false,
    description: 'Deadline of one webhook delivery attempt (connect, send, answer); a timeout is retried.',
  },
  {
    env: 'WEBHOOK_RETRY_BASE_MS',
    type: 'integer',
    default: '30000',
    secret: false,
    description: 'First retry delay of a failed webhook delivery; it doubles per attempt (with jitter) up to WEBHOOK_RETRY_MAX_DELAY_MS.',
  },
  {
    env: 'WEBHOOK_RETRY_MAX_DELAY_MS',
    type: 'integer',
    default: '43200000',
    secret: false,
    description: 'Longest delay between two webhook delivery attempts (default 12 hours).',
  },
  {
    env: 'WEBHOOK_RETRY_WINDOW_SECONDS',
    type: 'integer',
    default: '259200',
    secret: false,
    description: 'How long a webhook delivery is retried (default 3 days); an endpoint failing for all of it is disabled.',
  },
  {
    env: 'WEBHOOK_SECRET_OVERLAP_SECONDS',
    type: 'integer',
    default: '86400',
    secret: false,
    description: "After a webhook secret rotation, how long deliveries also carry the old secret's signature (default; the rotate call may set its own).",
  },
  {
    env: 'WEBHOOK_ALLOWED_INTERNAL_HOSTS',
    type: 'string',
    secret: false,
    description:
      'Comma-separated host names (or IP addresses) webhook endpoints may use although they resolve to loopback, private or link-local addresses (an ATS on a private network).',
  },
  {
    env: 'WEBHOOK_HTTP_ALLOWED_HOSTS',
    type: 'string',
    secret: false,
    description: 'Comma-separated host names whose webhook URLs may use plain http in production (outside production http is always allowed).',
  },
  {
    env: 'WEBHOOK_SWEEP_INTERVAL_MS',
    type: 'integer',
    default: '60000',
    secret: false,
    description: 'How often each process re-enqueues webhook deliveries that are due but have no job (a Redis restart lost it).',
  },
  {
    env: 'WEBHOOK_SWEEP_GRACE_MS',
    type: 'integer',
    default: '300000',
    secret: false,
    description: 'How long past its due time a pending webhook delivery may wait for its job before the sweep enqueues it again.',
  },
  {
    env: 'EVENT_RETENTION_DAYS',
    type: 'integer',
    default: '30',
    secret: false,
    description: 'How long events (GET /v1/events) and their webhook deliveries are kept.',
  },
  {
    env: 'BILLING_COLLECTION',
    type: 'enum',
    values: ['host', 'sandbox'],
    secret: false,
    description:
      'Who collects invoices: host (the plugin finalizes, publishes invoice.finalized and waits for the host to report the payment) or sandbox (test cards charged at finalization, with retries). Default: sandbox in the standalone host (npm start) outside production, host when embedded or in production (the operator reports payments).',
  },
  {
    env: 'BILLING_GRACE_DAYS',
    type: 'integer',
    default: '14',
    secret: false,
    description: 'How long a past_due organization keeps its licenses after a failed payment before it is suspended.',
  },
  {
    env: 'BILLING_RENEWAL_INTERVAL_SECONDS',
    type: 'integer',
    default: '60',
    secret: false,
    description: 'How often the renewal job looks for due periods, payment retries and ends of grace.',
  },
  {
    env: 'RECONCILE_INTERVAL_SECONDS',
    type: 'integer',
    default: '60',
    secret: false,
    description:
      'How often the reconciliation sweep looks for work whose effect is missing (undelivered applications, licenses still provisioning, reminders due but not sent).',
  },
  {
    env: 'RECONCILE_AFTER_SECONDS',
    type: 'integer',
    default: '600',
    secret: false,
    description:
      "The sweep's bound: work whose effect is still missing this long after it was written (or due) is enqueued again. Longer than the job retry schedules.",
  },
] as const satisfies readonly SettingSpec[];

export type TokenAuthMethod = 'client_secret_basic' | 'client_secret_post';

export interface ProfileProviderConfig {
  /** OIDC discovery: endpoints not given are read from the issuer's metadata. */
  issuer?: string;
  authorizeUrl?: string;
  tokenUrl?: string;
  profileUrl?: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  scopeDelimiter: string;
  tokenAuthMethod: TokenAuthMethod;
  authorizeParams: Record<string, string>;
  profileMapping: ProfileMapping;
}

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  host: string;
  trustProxy: string | number;
  /** The plugin's public URL: BASE_URL plus the mount path; every URL the plugin builds starts here. */
  baseUrl: string;
  /** Where the host mounts the plugin ('' = the host's root, as in the standalone host). */
  mountPath: string;
  cdnUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolMax: number;
  redisUrl: string | undefined;
  queuePrefix: string;
  /** REDIS_URL is a seed node of a Redis Cluster. */
  redisCluster: boolean;
  secretKey: Buffer;
  operatorApiKey: string | undefined;
  apiKeyRotationGraceSeconds: number;
  logLevel: string;
  bodyLimitBytes: number;
  rateLimitPerMinute: number;
  rateLimitPublicPerMinute: number;
  rateLimitConnectPerMinute: number;
  rateLimitAuthFailuresPerMinute: number;
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
  /** The operator's default email connection (SMTP_URL, SMTP_FROM); an organization's own connection wins. */
  smtp: { url: string; from: string } | undefined;
  /** Reconciliation sweep: how often it runs, and how old missing work must be before it acts. */
  reconcileIntervalSeconds: number;
  reconcileAfterSeconds: number;
  /** Billing: who collects (unset: the host decides; the standalone host picks sandbox), grace period, renewal job interval. */
  billingCollection: 'host' | 'sandbox' | undefined;
  billingGraceDays: number;
  billingRenewalIntervalSeconds: number;
  /** Standalone host: seed and serve the demo (undefined: embedded mode only). */
  demoEnabled: boolean | undefined;
  /** Webhook delivery: timeouts, the retry schedule, destination policy, the sweep. */
  webhooks: WebhookConfig;
  eventRetentionDays: number;
}

export interface WebhookConfig {
  timeoutMs: number;
  retryBaseMs: number;
  retryMaxDelayMs: number;
  retryWindowMs: number;
  secretOverlapSeconds: number;
  allowedInternalHosts: string[];
  httpAllowedHosts: string[];
  sweepIntervalMs: number;
  sweepGraceMs: number;
}

function hostList(env: Env, name: string): string[] {
  return (raw(env, name) ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

export class ConfigError extends Error {
  constructor(
    readonly env: string,
    message: string,
  ) {
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
  const problem = integerProblem(name, Number(value));
  if (problem) throw new ConfigError(name, problem);
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
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, 'must be an absolute URL');
  }
  const problem = urlProblem(name, parsed);
  if (problem) throw new ConfigError(name, problem);
  return value.replace(/\/+$/, '');
}

function smtpDefault(env: Env): { url: string; from: string } | undefined {
  const smtpUrl = url(env, 'SMTP_URL');
  const from = raw(env, 'SMTP_FROM');
  if (!smtpUrl) {
    if (from) throw new ConfigError('SMTP_FROM', 'is only read with SMTP_URL');
    return undefined;
  }
  if (!from) throw new ConfigError('SMTP_FROM', 'is required with SMTP_URL');
  return { url: smtpUrl, from };
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

/** Parameters the OAuth flow sets itself; an operator's extra parameter must not replace them. */
const PROTOCOL_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'state', 'code_challenge', 'code_challenge_method', 'scope', 'nonce'];
const SCOPE_DELIMITERS = { space: ' ', comma: ',', plus: '+' } as const;

function authorizeParams(env: Env): Record<string, string> {
  const value = raw(env, 'PROFILE_PROVIDER_AUTHORIZE_PARAMS');
  if (value === undefined) return {};
  const params: Record<string, string> = {};
  for (const [key, param] of new URLSearchParams(value)) {
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(key))
      throw new ConfigError('PROFILE_PROVIDER_AUTHORIZE_PARAMS', `"${key}" is not a parameter name (use name=value&name=value)`);
    if (PROTOCOL_PARAMS.includes(key))
      throw new ConfigError('PROFILE_PROVIDER_AUTHORIZE_PARAMS', `must not set ${key} (the OAuth flow sets it; scopes go in PROFILE_PROVIDER_SCOPES)`);
    params[key] = param;
  }
  return params;
}

/** Standard OpenID Connect claims (Core §5.1) as a profile: `sub` is the candidate's subject, `profile` their profile page. */
const USERINFO_MAPPING = { id: 'sub', name: 'name', profile_url: 'profile' };

/** The userinfo endpoint answers only to `openid` tokens: it is always requested; unset, `openid profile`. */
function userinfoScopes(env: Env): string[] {
  const configured = env.PROFILE_PROVIDER_SCOPES?.trim();
  const scopes = configured ? configured.split(/[\s,]+/).filter(Boolean) : ['profile'];
  return scopes.includes('openid') ? scopes : ['openid', ...scopes];
}

function profileProvider(env: Env): ProfileProviderConfig | undefined {
  const issuer = url(env, 'PROFILE_PROVIDER_ISSUER');
  const authorizeUrl = url(env, 'PROFILE_PROVIDER_AUTHORIZE_URL');
  if (!issuer && !authorizeUrl) return undefined;
  const required = (name: string, value: string | undefined): string => {
    if (!value)
      throw new ConfigError(
        name,
        issuer
          ? 'is required when PROFILE_PROVIDER_ISSUER is set'
          : 'is required when PROFILE_PROVIDER_AUTHORIZE_URL is set (or set PROFILE_PROVIDER_ISSUER for discovery)',
      );
    return value;
  };
  // Discovery supplies what is not given; without it, all three endpoints are needed.
  const endpoint = (name: string) => (issuer ? url(env, name) : required(name, url(env, name)));
  // PROFILE_PROVIDER_ISSUER without a profile API: the userinfo endpoint, which answers OpenID Connect claims.
  const userinfo = issuer !== undefined && url(env, 'PROFILE_PROVIDER_PROFILE_URL') === undefined;
  let profileMapping: ProfileMapping;
  try {
    profileMapping = parseProfileMapping(raw(env, 'PROFILE_PROVIDER_PROFILE_MAPPING') ?? (userinfo ? USERINFO_MAPPING : {}));
  } catch (error) {
    if (error instanceof ProfileMappingError) throw new ConfigError('PROFILE_PROVIDER_PROFILE_MAPPING', error.message);
    throw error;
  }
  return {
    issuer,
    authorizeUrl,
    tokenUrl: endpoint('PROFILE_PROVIDER_TOKEN_URL'),
    profileUrl: endpoint('PROFILE_PROVIDER_PROFILE_URL'),
    clientId: required('PROFILE_PROVIDER_CLIENT_ID', raw(env, 'PROFILE_PROVIDER_CLIENT_ID')),
    clientSecret: required('PROFILE_PROVIDER_CLIENT_SECRET', raw(env, 'PROFILE_PROVIDER_CLIENT_SECRET')),
    scopes: userinfo ? userinfoScopes(env) : (raw(env, 'PROFILE_PROVIDER_SCOPES') ?? '').split(/[\s,]+/).filter(Boolean),
    scopeDelimiter: SCOPE_DELIMITERS[oneOf(env, 'PROFILE_PROVIDER_SCOPE_DELIMITER', ['space', 'comma', 'plus'] as const)],
    tokenAuthMethod: oneOf(env, 'PROFILE_PROVIDER_TOKEN_AUTH_METHOD', ['client_secret_basic', 'client_secret_post'] as const),
    authorizeParams: authorizeParams(env),
    profileMapping,
  };
}

export interface LoadOptions {
  /** The path the host mounts the plugin under ('' or `/a/b`); joined to BASE_URL for every URL the plugin builds. */
  mountPath?: string;
  /**
   * An embedding host's configuration (defineConfig): SECRET_KEY is required (nothing is
   * generated into a folder), and the database may be the host's knex instead of DATABASE_URL.
   * Otherwise the standalone host's rules: embedded mode generates a secret into DATA_DIR.
   */
  embedding?: boolean;
}

const MOUNT_PATH = /^(\/[A-Za-z0-9._~-]+)*$/;

export function loadConfig(env: Env = process.env, options: LoadOptions = {}): Config {
  const mode = oneOf(env, 'NODE_ENV', ['development', 'test', 'production'] as const);
  const production = mode === 'production';
  const port = integer(env, 'PORT')!;
  const mountPath = (options.mountPath ?? '').replace(/\/+$/, '');
  if (!MOUNT_PATH.test(mountPath) || mountPath.split('/').some((segment) => /^\.+$/.test(segment)))
    throw new ConfigError('mountPath', `must be empty or /segment[/segment…] of A-Za-z0-9._~-, got "${options.mountPath}"`);
  const baseUrl = (url(env, 'BASE_URL') ?? `http://localhost:${port}`) + mountPath;
  const dataDir = path.resolve(raw(env, 'DATA_DIR')!);
  const databaseUrl = url(env, 'DATABASE_URL');
  const redisUrl = url(env, 'REDIS_URL');
  const redisCluster = boolean(env, 'REDIS_CLUSTER') ?? false;
  if (redisCluster && !redisUrl) throw new ConfigError('REDIS_CLUSTER', 'needs REDIS_URL (any one node of the cluster)');
  // BullMQ's multi-key scripts need every key of a queue in one slot: the whole prefix is one hash tag.
  if (redisCluster && !/^\{[^{}]+\}$/.test(raw(env, 'QUEUE_PREFIX')!)) {
    throw new ConfigError('QUEUE_PREFIX', 'must be a Redis Cluster hash tag such as {hiring-integrations} when REDIS_CLUSTER=true');
  }
  const secret = raw(env, 'SECRET_KEY');
  const provider = profileProvider(env);
  const sandboxProviderEnabled = boolean(env, 'SANDBOX_PROVIDER_ENABLED') ?? !production;

  if (!secret && options.embedding) {
    throw new ConfigError('SECRET_KEY', 'is required: pass a secret of 32+ bytes (hex or base64), e.g. from `openssl rand -hex 32`, the same in every process');
  }
  if (production) {
    if (!databaseUrl && !options.embedding) throw new ConfigError('DATABASE_URL', 'is required in production (the embedded database is for development)');
    if (!secret) throw new ConfigError('SECRET_KEY', 'is required in production');
    if (!env.BASE_URL) throw new ConfigError('BASE_URL', 'is required in production');
    if (!provider && !sandboxProviderEnabled) {
      throw new ConfigError('PROFILE_PROVIDER_AUTHORIZE_URL', 'is required in production (or PROFILE_PROVIDER_ISSUER) unless SANDBOX_PROVIDER_ENABLED=true');
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
    mountPath,
    cdnUrl: url(env, 'CDN_URL') ?? baseUrl,
    dataDir,
    databaseUrl,
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX')!,
    redisUrl,
    queuePrefix: raw(env, 'QUEUE_PREFIX')!,
    redisCluster,
    secretKey: secret ? decodeSecret('SECRET_KEY', secret) : embeddedSecret(dataDir),
    operatorApiKey,
    apiKeyRotationGraceSeconds: integer(env, 'API_KEY_ROTATION_GRACE_SECONDS')!,
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES')!,
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE')!,
    rateLimitPublicPerMinute: integer(env, 'RATE_LIMIT_PUBLIC_PER_MINUTE')!,
    rateLimitConnectPerMinute: integer(env, 'RATE_LIMIT_CONNECT_PER_MINUTE')!,
    rateLimitAuthFailuresPerMinute: integer(env, 'RATE_LIMIT_AUTH_FAILURES_PER_MINUTE')!,
    workerConcurrency: integer(env, 'WORKER_CONCURRENCY'),
    workerHttpPort: integer(env, 'WORKER_HTTP_PORT')!,
    shutdownTimeoutSeconds: integer(env, 'SHUTDOWN_TIMEOUT_SECONDS')!,
    jobLockDurationMs: positive(env, 'JOB_LOCK_DURATION_MS'),
    jobStalledIntervalMs: positive(env, 'JOB_STALLED_INTERVAL_MS'),
    profileProvider: provider,
    sandboxProviderEnabled,
    sandboxInternalUrl: url(env, 'SANDBOX_INTERNAL_URL') ? `${url(env, 'SANDBOX_INTERNAL_URL')}${mountPath}` : baseUrl,
    profileProviderTimeoutMs: integer(env, 'PROFILE_PROVIDER_TIMEOUT_MS')!,
    profileImportWaitMs: positive(env, 'PROFILE_IMPORT_WAIT_MS'),
    entitlementCacheTtlSeconds: positive(env, 'ENTITLEMENT_CACHE_TTL_SECONDS'),
    reminderLeadMinutes: integer(env, 'REMINDER_LEAD_MINUTES')!,
    smtp: smtpDefault(env),
    demoEnabled: boolean(env, 'DEMO_ENABLED'),
    webhooks: {
      timeoutMs: positive(env, 'WEBHOOK_TIMEOUT_MS'),
      retryBaseMs: positive(env, 'WEBHOOK_RETRY_BASE_MS'),
      retryMaxDelayMs: positive(env, 'WEBHOOK_RETRY_MAX_DELAY_MS'),
      retryWindowMs: positive(env, 'WEBHOOK_RETRY_WINDOW_SECONDS') * 1000,
      secretOverlapSeconds: integer(env, 'WEBHOOK_SECRET_OVERLAP_SECONDS')!,
      allowedInternalHosts: hostList(env, 'WEBHOOK_ALLOWED_INTERNAL_HOSTS'),
      httpAllowedHosts: hostList(env, 'WEBHOOK_HTTP_ALLOWED_HOSTS'),
      sweepIntervalMs: positive(env, 'WEBHOOK_SWEEP_INTERVAL_MS'),
      sweepGraceMs: integer(env, 'WEBHOOK_SWEEP_GRACE_MS')!,
    },
    eventRetentionDays: positive(env, 'EVENT_RETENTION_DAYS'),
    billingCollection: raw(env, 'BILLING_COLLECTION') === undefined ? undefined : oneOf(env, 'BILLING_COLLECTION', ['host', 'sandbox'] as const),
    billingGraceDays: integer(env, 'BILLING_GRACE_DAYS')!,
    billingRenewalIntervalSeconds: positive(env, 'BILLING_RENEWAL_INTERVAL_SECONDS'),
    reconcileIntervalSeconds: positive(env, 'RECONCILE_INTERVAL_SECONDS'),
    reconcileAfterSeconds: positive(env, 'RECONCILE_AFTER_SECONDS'),
  };
}
