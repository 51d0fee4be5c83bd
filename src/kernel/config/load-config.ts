/**
 * Builds the Config the plugin runs with: the schema parses each setting, then the rules
 * that tie settings together (production refuses unsafe defaults, a profile provider needs
 * its endpoints and client, an embedding host passes its own secret) and the derived values
 * (URLs joined to the mount path, the embedded secret) are applied here.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error';
import type { Config, ProfileProviderConfig } from './config-types';
import { IDENTITY_MAPPING, parseProfileMapping } from './profile-mapping';
import { parseSettings, type Settings } from './schema';
import { decodeSecret, SECRET_TOO_SHORT } from './value-parsers';

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
const SCOPE_DELIMITERS = { space: ' ', comma: ',', plus: '+' } as const;

/** Standard OpenID Connect claims (Core §5.1) as a profile: `sub` is the candidate's subject, `profile` their profile page. */
const USERINFO_MAPPING = parseProfileMapping({ id: 'sub', name: 'name', profile_url: 'profile' });

/** The userinfo endpoint answers only to `openid` tokens: it is always requested; unset, `openid profile`. */
function userinfoScopes(env: Record<string, string | undefined>, parsed: string[]): string[] {
  const scopes = env.PROFILE_PROVIDER_SCOPES?.trim() ? parsed : ['profile'];
  return scopes.includes('openid') ? scopes : ['openid', ...scopes];
}

/** Embedded mode keeps a generated secret beside its database, so tokens survive restarts. */
function embeddedSecret(dataDir: string): Buffer {
  const file = path.join(dataDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  const secret = decodeSecret(readFileSync(file, 'utf8').trim());
  if (!secret) throw new ConfigError('SECRET_KEY', `${SECRET_TOO_SHORT} (in ${file})`);
  return secret;
}

function mountPathOf(options: LoadOptions): string {
  const mountPath = (options.mountPath ?? '').replace(/\/+$/, '');
  if (!MOUNT_PATH.test(mountPath) || mountPath.split('/').some((segment) => /^\.+$/.test(segment)))
    throw new ConfigError('mountPath', `must be empty or /segment[/segment…] of A-Za-z0-9._~-, got "${options.mountPath}"`);
  return mountPath;
}

function profileProvider(s: Settings, env: Record<string, string | undefined>): ProfileProviderConfig | undefined {
  const issuer = s.PROFILE_PROVIDER_ISSUER;
  const authorizeUrl = s.PROFILE_PROVIDER_AUTHORIZE_URL;
  if (!issuer && !authorizeUrl) return undefined;
  const required = (name: string, value: string | undefined): string => {
    if (value) return value;
    throw new ConfigError(
      name,
      issuer
        ? 'is required when PROFILE_PROVIDER_ISSUER is set'
        : 'is required when PROFILE_PROVIDER_AUTHORIZE_URL is set (or set PROFILE_PROVIDER_ISSUER for discovery)',
    );
  };
  // Discovery supplies what is not given; without it, all three endpoints are needed.
  const endpoint = (name: 'PROFILE_PROVIDER_TOKEN_URL' | 'PROFILE_PROVIDER_PROFILE_URL') => (issuer ? s[name] : required(name, s[name]));
  // PROFILE_PROVIDER_ISSUER without a profile API: the userinfo endpoint, which answers OpenID Connect claims.
  const userinfo = issuer !== undefined && s.PROFILE_PROVIDER_PROFILE_URL === undefined;
  return {
    issuer,
    authorizeUrl,
    tokenUrl: endpoint('PROFILE_PROVIDER_TOKEN_URL'),
    profileUrl: endpoint('PROFILE_PROVIDER_PROFILE_URL'),
    clientId: required('PROFILE_PROVIDER_CLIENT_ID', s.PROFILE_PROVIDER_CLIENT_ID),
    clientSecret: required('PROFILE_PROVIDER_CLIENT_SECRET', s.PROFILE_PROVIDER_CLIENT_SECRET),
    scopes: userinfo ? userinfoScopes(env, s.PROFILE_PROVIDER_SCOPES) : s.PROFILE_PROVIDER_SCOPES,
    scopeDelimiter: SCOPE_DELIMITERS[s.PROFILE_PROVIDER_SCOPE_DELIMITER],
    tokenAuthMethod: s.PROFILE_PROVIDER_TOKEN_AUTH_METHOD,
    authorizeParams: s.PROFILE_PROVIDER_AUTHORIZE_PARAMS ?? {},
    profileMapping: s.PROFILE_PROVIDER_PROFILE_MAPPING ?? (userinfo ? USERINFO_MAPPING : IDENTITY_MAPPING),
  };
}

/** The rules no single setting can check: production's refusals and an embedding host's secret. */
function checkTogether(s: Settings, provider: ProfileProviderConfig | undefined, sandboxProviderEnabled: boolean, options: LoadOptions): void {
  if (!s.SECRET_KEY && options.embedding) {
    throw new ConfigError('SECRET_KEY', 'is required: pass a secret of 32+ bytes (hex or base64), e.g. from `openssl rand -hex 32`, the same in every process');
  }
  if (s.REDIS_CLUSTER && !s.REDIS_URL) throw new ConfigError('REDIS_CLUSTER', 'needs REDIS_URL (any one node of the cluster)');
  // BullMQ's multi-key scripts need every key of a queue in one slot: the whole prefix is one hash tag.
  if (s.REDIS_CLUSTER && !/^\{[^{}]+\}$/.test(s.QUEUE_PREFIX)) {
    throw new ConfigError('QUEUE_PREFIX', 'must be a Redis Cluster hash tag such as {hiring-integrations} when REDIS_CLUSTER=true');
  }
  if (s.NODE_ENV !== 'production') return;
  if (!s.DATABASE_URL && !options.embedding) throw new ConfigError('DATABASE_URL', 'is required in production (the embedded database is for development)');
  if (!s.SECRET_KEY) throw new ConfigError('SECRET_KEY', 'is required in production');
  if (!s.BASE_URL) throw new ConfigError('BASE_URL', 'is required in production');
  if (!provider && !sandboxProviderEnabled) {
    throw new ConfigError('PROFILE_PROVIDER_AUTHORIZE_URL', 'is required in production (or PROFILE_PROVIDER_ISSUER) unless SANDBOX_PROVIDER_ENABLED=true');
  }
}

/** The operator's default email connection: SMTP_URL and SMTP_FROM come together. */
function smtpDefault(s: Settings): { url: string; from: string } | undefined {
  if (!s.SMTP_URL) {
    if (s.SMTP_FROM) throw new ConfigError('SMTP_FROM', 'is only read with SMTP_URL');
    return undefined;
  }
  if (!s.SMTP_FROM) throw new ConfigError('SMTP_FROM', 'is required with SMTP_URL');
  return { url: s.SMTP_URL.replace(/\/+$/, ''), from: s.SMTP_FROM };
}

export function loadConfig(env: Record<string, string | undefined> = process.env, options: LoadOptions = {}): Config {
  const s = parseSettings(env);
  const mountPath = mountPathOf(options);
  const baseUrl = (s.BASE_URL ?? `http://localhost:${s.PORT}`) + mountPath;
  const dataDir = path.resolve(s.DATA_DIR);
  const provider = profileProvider(s, env);
  const sandboxProviderEnabled = s.SANDBOX_PROVIDER_ENABLED ?? s.NODE_ENV !== 'production';
  checkTogether(s, provider, sandboxProviderEnabled, options);
  return {
    env: s.NODE_ENV,
    port: s.PORT,
    host: s.HOST,
    trustProxy: s.TRUST_PROXY,
    baseUrl,
    mountPath,
    cdnUrl: s.CDN_URL ?? baseUrl,
    jobFeedsListingUrl: s.JOB_FEEDS_LISTING_URL,
    dataDir,
    databaseUrl: s.DATABASE_URL,
    databasePoolMax: s.DATABASE_POOL_MAX,
    redisUrl: s.REDIS_URL,
    queuePrefix: s.QUEUE_PREFIX,
    redisCluster: s.REDIS_CLUSTER ?? false,
    secretKey: s.SECRET_KEY ?? embeddedSecret(dataDir),
    operatorApiKey: s.OPERATOR_API_KEY,
    apiKeyRotationGraceSeconds: s.API_KEY_ROTATION_GRACE_SECONDS,
    logLevel: s.LOG_LEVEL,
    bodyLimitBytes: s.BODY_LIMIT_BYTES,
    rateLimitPerMinute: s.RATE_LIMIT_PER_MINUTE,
    rateLimitPublicPerMinute: s.RATE_LIMIT_PUBLIC_PER_MINUTE,
    rateLimitConnectPerMinute: s.RATE_LIMIT_CONNECT_PER_MINUTE,
    rateLimitAuthFailuresPerMinute: s.RATE_LIMIT_AUTH_FAILURES_PER_MINUTE,
    workerConcurrency: s.WORKER_CONCURRENCY,
    workerHttpPort: s.WORKER_HTTP_PORT,
    shutdownTimeoutSeconds: s.SHUTDOWN_TIMEOUT_SECONDS,
    jobLockDurationMs: s.JOB_LOCK_DURATION_MS,
    jobStalledIntervalMs: s.JOB_STALLED_INTERVAL_MS,
    credentialDocuments: {
      dir: path.resolve(s.CREDENTIAL_DOCUMENTS_DIR ?? path.join(dataDir, 'credential-documents')),
      maxBytes: s.CREDENTIAL_DOCUMENT_MAX_BYTES,
    },
    profileProvider: provider,
    sandboxProviderEnabled,
    sandboxInternalUrl: s.SANDBOX_INTERNAL_URL ? `${s.SANDBOX_INTERNAL_URL}${mountPath}` : baseUrl,
    profileProviderTimeoutMs: s.PROFILE_PROVIDER_TIMEOUT_MS,
    profileImportWaitMs: s.PROFILE_IMPORT_WAIT_MS,
    entitlementCacheTtlSeconds: s.ENTITLEMENT_CACHE_TTL_SECONDS,
    reminderLeadMinutes: s.REMINDER_LEAD_MINUTES,
    smtp: smtpDefault(s),
    connectorAllowedInternalHosts: s.CONNECTOR_ALLOWED_INTERNAL_HOSTS ?? [],
    demoEnabled: s.DEMO_ENABLED,
    webhooks: {
      timeoutMs: s.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: s.WEBHOOK_RETRY_BASE_MS,
      retryMaxDelayMs: s.WEBHOOK_RETRY_MAX_DELAY_MS,
      retryWindowMs: s.WEBHOOK_RETRY_WINDOW_SECONDS * 1000,
      secretOverlapSeconds: s.WEBHOOK_SECRET_OVERLAP_SECONDS,
      allowedInternalHosts: s.WEBHOOK_ALLOWED_INTERNAL_HOSTS ?? [],
      httpAllowedHosts: s.WEBHOOK_HTTP_ALLOWED_HOSTS ?? [],
      sweepIntervalMs: s.WEBHOOK_SWEEP_INTERVAL_MS,
      sweepGraceMs: s.WEBHOOK_SWEEP_GRACE_MS,
    },
    eventRetentionDays: s.EVENT_RETENTION_DAYS,
    auditRetentionDays: s.AUDIT_RETENTION_DAYS,
    actionRunRetention: { succeededDays: s.ACTION_RUN_RETENTION_DAYS, failedDays: s.ACTION_RUN_FAILED_RETENTION_DAYS },
    billingCollection: s.BILLING_COLLECTION,
    billingGraceDays: s.BILLING_GRACE_DAYS,
    billingRenewalIntervalSeconds: s.BILLING_RENEWAL_INTERVAL_SECONDS,
    complianceSweepIntervalSeconds: s.COMPLIANCE_SWEEP_INTERVAL_SECONDS,
    jobImportSweepIntervalSeconds: s.JOB_IMPORT_SWEEP_INTERVAL_SECONDS,
    reconcileIntervalSeconds: s.RECONCILE_INTERVAL_SECONDS,
    reconcileAfterSeconds: s.RECONCILE_AFTER_SECONDS,
  };
}
