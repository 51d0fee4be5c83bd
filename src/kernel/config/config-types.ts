/** The configuration the plugin runs with: the parsed settings, shaped for the code that reads them. */
import type { ProfileMapping } from './profile-mapping';

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
  /** JOB_FEEDS_LISTING_URL: the listing page template ({organization_id}, {listing_id}) the job feeds link to; undefined: no feeds. */
  jobFeedsListingUrl: string | undefined;
  dataDir: string;
  /** Uploaded credential documents: the encrypted local-disk blob store's folder and the size bound. */
  credentialDocuments: { dir: string; maxBytes: number };
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
  /** Hosts organizations' connections may reach although they resolve to internal addresses (CONNECTOR_ALLOWED_INTERNAL_HOSTS). */
  connectorAllowedInternalHosts: string[];
  /** Reconciliation sweep: how often it runs, and how old missing work must be before it acts. */
  reconcileIntervalSeconds: number;
  reconcileAfterSeconds: number;
  /** Billing: who collects (unset: the host decides; the standalone host picks sandbox), grace period, renewal job interval. */
  billingCollection: 'host' | 'sandbox' | undefined;
  billingGraceDays: number;
  billingRenewalIntervalSeconds: number;
  /** Compliance: how often expiring credentials are swept. */
  complianceSweepIntervalSeconds: number;
  /** Job import: how often the sweep queues the imports of feeds due. */
  jobImportSweepIntervalSeconds: number;
  /** Standalone host: seed and serve the demo (undefined: embedded mode only). */
  demoEnabled: boolean | undefined;
  /** Webhook delivery: timeouts, the retry schedule, destination policy, the sweep. */
  webhooks: WebhookConfig;
  eventRetentionDays: number;
  auditRetentionDays: number;
  /** Days a completed action run is kept, by outcome (the daily retention pass prunes older ones). */
  actionRunRetention: { succeededDays: number; failedDays: number };
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
