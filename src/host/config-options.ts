/**
 * GENERATED from the configuration schema (src/kernel/config) by `npm run build`: do not edit.
 * defineConfig's options: every setting an embedding host may pass, named after its
 * variable in camel case, typed as the schema parses it.
 */
export interface SettingOptions {
  /**
   * production refuses unsafe defaults (embedded database, generated secret, sandbox provider).
   *
   * `NODE_ENV`, default `development`.
   */
  nodeEnv?: 'development' | 'test' | 'production';

  /**
   * Public base URL of the service. Default: http://localhost:$PORT.
   *
   * `BASE_URL`.
   */
  baseUrl?: string;

  /**
   * Where the widget script is served from. Default: BASE_URL.
   *
   * `CDN_URL`.
   */
  cdnUrl?: string;

  /**
   * The public page of a listing on the organization's careers site, where its JobPosting JSON-LD is embedded and candidates apply: an http(s) URL template with {listing_id} (and optionally {organization_id}). Without it the job feeds answer 404 job_feed_unavailable (docs/job-feeds.md).
   *
   * `JOB_FEEDS_LISTING_URL`.
   */
  jobFeedsListingUrl?: string;

  /**
   * Minimum level of the JSON logs.
   *
   * `LOG_LEVEL`, default `info`.
   */
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

  /**
   * Largest accepted request body; larger answers 413.
   *
   * `BODY_LIMIT_BYTES`, default `65536`.
   */
  bodyLimitBytes?: number;

  /**
   * `serve` seeds the demo organization and serves /demo and /demo/pipeline. Default: on in embedded mode, off on PostgreSQL (or `serve --demo`); never in production.
   *
   * `DEMO_ENABLED`.
   */
  demoEnabled?: boolean;

  /**
   * PostgreSQL connection string. Unset: embedded PGlite under DATA_DIR.
   *
   * `DATABASE_URL`, secret.
   */
  databaseUrl?: string;

  /**
   * Maximum PostgreSQL connections per process.
   *
   * `DATABASE_POOL_MAX`, default `10`.
   */
  databasePoolMax?: number;

  /**
   * Redis connection string. Unset: jobs run in-process.
   *
   * `REDIS_URL`, secret.
   */
  redisUrl?: string;

  /**
   * REDIS_URL names one node of a Redis Cluster (a seed; the others are discovered from it; its credentials and TLS apply to every node). QUEUE_PREFIX must then be a hash tag ({…}). Default: false.
   *
   * `REDIS_CLUSTER`.
   */
  redisCluster?: boolean;

  /**
   * BullMQ key prefix; the braces are a Redis Cluster hash tag.
   *
   * `QUEUE_PREFIX`, default `{hiring-integrations}`.
   */
  queuePrefix?: string;

  /**
   * Overrides every queue's default concurrency from the manifest.
   *
   * `WORKER_CONCURRENCY`.
   */
  workerConcurrency?: number;

  /**
   * BullMQ job lock: a worker that stops renewing it for this long (crashed, killed) loses the job to another worker.
   *
   * `JOB_LOCK_DURATION_MS`, default `30000`.
   */
  jobLockDurationMs?: number;

  /**
   * Folder of the local-disk blob store holding uploaded credential documents, each encrypted with AES-256-GCM under a key derived from SECRET_KEY. Default: DATA_DIR/credential-documents. Every process (web, worker) must see the same folder.
   *
   * `CREDENTIAL_DOCUMENTS_DIR`.
   */
  credentialDocumentsDir?: string;

  /**
   * Largest credential document accepted for review (PDF, PNG or JPEG), in bytes; larger answers 413.
   *
   * `CREDENTIAL_DOCUMENT_MAX_BYTES`, default `10485760`.
   */
  credentialDocumentMaxBytes?: number;

  /**
   * How often each worker looks for jobs whose lock expired (stalled) and puts them back in the queue.
   *
   * `JOB_STALLED_INTERVAL_MS`, default `30000`.
   */
  jobStalledIntervalMs?: number;

  /**
   * 32+ byte secret (hex or base64) that encrypts OAuth tokens and signs candidate sessions. Embedded mode generates one into DATA_DIR; required in production.
   *
   * `SECRET_KEY`, secret.
   */
  secretKey?: string;

  /**
   * Credential for operator-only calls (catalog management, hooks, job dashboard), at least 24 characters. Unset: operator calls are refused.
   *
   * `OPERATOR_API_KEY`, secret.
   */
  operatorApiKey?: string;

  /**
   * How long a rotated API key keeps working.
   *
   * `API_KEY_ROTATION_GRACE_SECONDS`, default `86400`.
   */
  apiKeyRotationGraceSeconds?: number;

  /**
   * Requests per minute per organization (API keys, candidate sessions); 0 turns every rate limit off.
   *
   * `RATE_LIMIT_PER_MINUTE`, default `600`.
   */
  rateLimitPerMinute?: number;

  /**
   * Requests per minute per client IP to public endpoints (the widget's listing read, CORS preflights, the sandbox provider); never health checks.
   *
   * `RATE_LIMIT_PUBLIC_PER_MINUTE`, default `300`.
   */
  rateLimitPublicPerMinute?: number;

  /**
   * Connect popup pages (start and callback) per minute per client IP.
   *
   * `RATE_LIMIT_CONNECT_PER_MINUTE`, default `60`.
   */
  rateLimitConnectPerMinute?: number;

  /**
   * Failed authentications per minute per client IP and per API key prefix; past it every credential check of that IP or key answers 429, even with a correct key.
   *
   * `RATE_LIMIT_AUTH_FAILURES_PER_MINUTE`, default `30`.
   */
  rateLimitAuthFailuresPerMinute?: number;

  /**
   * Issuer URL of an OpenID Connect provider: the authorize and token endpoints (and, unless PROFILE_PROVIDER_PROFILE_URL is set, the userinfo endpoint as profile API) are read from its /.well-known/openid-configuration. An alternative to the three endpoint URLs. With the userinfo endpoint, "openid" is always requested (scopes default to "openid profile") and, unless PROFILE_PROVIDER_PROFILE_MAPPING says otherwise, the standard claims are read: sub (the candidate), name, profile (the profile URL).
   *
   * `PROFILE_PROVIDER_ISSUER`.
   */
  profileProviderIssuer?: string;

  /**
   * OAuth 2.0 authorize endpoint of the profile provider. Unset (and no PROFILE_PROVIDER_ISSUER): the built-in sandbox provider.
   *
   * `PROFILE_PROVIDER_AUTHORIZE_URL`.
   */
  profileProviderAuthorizeUrl?: string;

  /**
   * OAuth 2.0 token endpoint of the profile provider.
   *
   * `PROFILE_PROVIDER_TOKEN_URL`.
   */
  profileProviderTokenUrl?: string;

  /**
   * Profile API endpoint (GET, bearer token) of the profile provider.
   *
   * `PROFILE_PROVIDER_PROFILE_URL`.
   */
  profileProviderProfileUrl?: string;

  /**
   * OAuth client id at the profile provider.
   *
   * `PROFILE_PROVIDER_CLIENT_ID`.
   */
  profileProviderClientId?: string;

  /**
   * OAuth client secret at the profile provider.
   *
   * `PROFILE_PROVIDER_CLIENT_SECRET`, secret.
   */
  profileProviderClientSecret?: string;

  /**
   * How the client authenticates at the token endpoint (code exchange and refresh): HTTP Basic (the OAuth 2.0 default) or client_id and client_secret in the form body.
   *
   * `PROFILE_PROVIDER_TOKEN_AUTH_METHOD`, default `client_secret_basic`.
   */
  profileProviderTokenAuthMethod?: 'client_secret_basic' | 'client_secret_post';

  /**
   * Scopes requested from the profile provider, separated by spaces or commas. Replaces the default list, so keep the data scopes: e.g. "openid profile skills credentials experience offline_access" (a list without them makes a scope-limiting provider return no skills).
   *
   * `PROFILE_PROVIDER_SCOPES`, default `profile skills credentials experience`.
   */
  profileProviderScopes?: string;

  /**
   * How the scopes are joined in the authorize request (space per RFC 6749; some providers want commas).
   *
   * `PROFILE_PROVIDER_SCOPE_DELIMITER`, default `space`.
   */
  profileProviderScopeDelimiter?: 'space' | 'comma' | 'plus';

  /**
   * Extra authorize request parameters in query-string form, e.g. "prompt=consent&access_type=offline" (what some providers need to issue a refresh token). OAuth protocol parameters (client_id, redirect_uri, state, …) are refused.
   *
   * `PROFILE_PROVIDER_AUTHORIZE_PARAMS`.
   */
  profileProviderAuthorizeParams?: string;

  /**
   * JSON: where the profile API answer keeps each field, for a provider whose JSON differs from ours, e.g. {"id":"user.id","skills":{"path":"expertise","name":"label"}}. Unset: our shape.
   *
   * `PROFILE_PROVIDER_PROFILE_MAPPING`.
   */
  profileProviderProfileMapping?: string;

  /**
   * Serve the sandbox profile provider. Default: on unless NODE_ENV=production.
   *
   * `SANDBOX_PROVIDER_ENABLED`.
   */
  sandboxProviderEnabled?: boolean;

  /**
   * Where servers (the API's token exchange, workers' profile imports) reach the sandbox provider's token and profile endpoints. Default: BASE_URL. The browser always uses BASE_URL.
   *
   * `SANDBOX_INTERNAL_URL`.
   */
  sandboxInternalUrl?: string;

  /**
   * Deadline of each request to the profile provider (profile API, token endpoint); a timeout counts as an outage and is retried.
   *
   * `PROFILE_PROVIDER_TIMEOUT_MS`, default `5000`.
   */
  profileProviderTimeoutMs?: number;

  /**
   * Longest the apply endpoint waits for an on-demand profile import (no fresh snapshot); past it, 503 provider_unavailable while the import finishes in the background.
   *
   * `PROFILE_IMPORT_WAIT_MS`, default `8000`.
   */
  profileImportWaitMs?: number;

  /**
   * Deadline of one webhook delivery attempt (connect, send, answer); a timeout is retried.
   *
   * `WEBHOOK_TIMEOUT_MS`, default `10000`.
   */
  webhookTimeoutMs?: number;

  /**
   * First retry delay of a failed webhook delivery; it doubles per attempt (with jitter) up to WEBHOOK_RETRY_MAX_DELAY_MS.
   *
   * `WEBHOOK_RETRY_BASE_MS`, default `30000`.
   */
  webhookRetryBaseMs?: number;

  /**
   * Longest delay between two webhook delivery attempts (default 12 hours).
   *
   * `WEBHOOK_RETRY_MAX_DELAY_MS`, default `43200000`.
   */
  webhookRetryMaxDelayMs?: number;

  /**
   * How long a webhook delivery is retried (default 3 days); an endpoint failing for all of it is disabled.
   *
   * `WEBHOOK_RETRY_WINDOW_SECONDS`, default `259200`.
   */
  webhookRetryWindowSeconds?: number;

  /**
   * After a webhook secret rotation, how long deliveries also carry the old secret's signature (default; the rotate call may set its own).
   *
   * `WEBHOOK_SECRET_OVERLAP_SECONDS`, default `86400`.
   */
  webhookSecretOverlapSeconds?: number;

  /**
   * Comma-separated host names (or IP addresses) webhook endpoints may use although they resolve to loopback, private or link-local addresses (an ATS on a private network).
   *
   * `WEBHOOK_ALLOWED_INTERNAL_HOSTS`.
   */
  webhookAllowedInternalHosts?: string;

  /**
   * Comma-separated host names whose webhook URLs may use plain http in production (outside production http is always allowed).
   *
   * `WEBHOOK_HTTP_ALLOWED_HOSTS`.
   */
  webhookHttpAllowedHosts?: string;

  /**
   * How often each process re-enqueues webhook deliveries that are due but have no job (a Redis restart lost it).
   *
   * `WEBHOOK_SWEEP_INTERVAL_MS`, default `60000`.
   */
  webhookSweepIntervalMs?: number;

  /**
   * How long past its due time a pending webhook delivery may wait for its job before the sweep enqueues it again.
   *
   * `WEBHOOK_SWEEP_GRACE_MS`, default `300000`.
   */
  webhookSweepGraceMs?: number;

  /**
   * How long events (GET /v1/events) and their webhook deliveries are kept.
   *
   * `EVENT_RETENTION_DAYS`, default `30`.
   */
  eventRetentionDays?: number;

  /**
   * How long audit events (GET /v1/audit_events) are kept: 400 days covers a 13-month look-back (a yearly audit and its month of slack). The daily retention pass removes older events and anchors each chain so that audit verify still passes.
   *
   * `AUDIT_RETENTION_DAYS`, default `400`.
   */
  auditRetentionDays?: number;

  /**
   * How long a succeeded action run (GET /v1/integrations/runs) is kept after it completed. The daily retention pass deletes older ones in batches; a run still running or retrying, or referenced by a record still open (a pending verification, an unsigned envelope, a payout in transit…), is kept.
   *
   * `ACTION_RUN_RETENTION_DAYS`, default `90`.
   */
  actionRunRetentionDays?: number;

  /**
   * How long a failed action run is kept after it failed (longer than a succeeded one: it is what an organization investigates or retries).
   *
   * `ACTION_RUN_FAILED_RETENTION_DAYS`, default `180`.
   */
  actionRunFailedRetentionDays?: number;

  /**
   * Longest a process keeps a cached answer: license answers for the gate and the apply path, and the per-process caches of API keys, organization settings and listings; changes invalidate them at once (Redis pub/sub or in-process), the TTL bounds staleness if a message is lost.
   *
   * `ENTITLEMENT_CACHE_TTL_SECONDS`, default `60`.
   */
  entitlementCacheTtlSeconds?: number;

  /**
   * How long before an interview its email and SMS reminders are sent (at once when that moment has passed).
   *
   * `REMINDER_LEAD_MINUTES`, default `60`.
   */
  reminderLeadMinutes?: number;

  /**
   * Who collects invoices: host (the plugin finalizes, publishes invoice.finalized and waits for the host to report the payment) or sandbox (test cards charged at finalization, with retries). Default: sandbox in the standalone host (npm start) outside production, host when embedded or in production (the operator reports payments).
   *
   * `BILLING_COLLECTION`.
   */
  billingCollection?: 'host' | 'sandbox';

  /**
   * How long a past_due organization keeps its licenses after a failed payment before it is suspended.
   *
   * `BILLING_GRACE_DAYS`, default `14`.
   */
  billingGraceDays?: number;

  /**
   * How often the renewal job looks for due periods, payment retries and ends of grace.
   *
   * `BILLING_RENEWAL_INTERVAL_SECONDS`, default `60`.
   */
  billingRenewalIntervalSeconds?: number;

  /**
   * How often the compliance sweep sends credential.expiring / credential.expired for credentials reaching a reminder threshold or their expiry.
   *
   * `COMPLIANCE_SWEEP_INTERVAL_SECONDS`, default `3600`.
   */
  complianceSweepIntervalSeconds?: number;

  /**
   * How often the job import sweep queues the imports of feeds whose interval has come (job_import.import_jobs).
   *
   * `JOB_IMPORT_SWEEP_INTERVAL_SECONDS`, default `60`.
   */
  jobImportSweepIntervalSeconds?: number;

  /**
   * How often the reconciliation sweep looks for work whose effect is missing (undelivered applications, licenses still provisioning, reminders due but not sent).
   *
   * `RECONCILE_INTERVAL_SECONDS`, default `60`.
   */
  reconcileIntervalSeconds?: number;

  /**
   * The sweep's bound: work whose effect is still missing this long after it was written (or due) is enqueued again. Longer than the job retry schedules.
   *
   * `RECONCILE_AFTER_SECONDS`, default `600`.
   */
  reconcileAfterSeconds?: number;

  /**
   * Deployment default email connection for every organization without its own (e.g. the ATS's relay): smtp://user:pass@host:587 (STARTTLS required), smtps://…:465 (TLS), ?security=none for a local relay. Unset: none.
   *
   * `SMTP_URL`, secret.
   */
  smtpUrl?: string;

  /**
   * Sender address of the SMTP_URL connection (required with it), e.g. "Hiring <jobs@example.com>" or jobs@example.com.
   *
   * `SMTP_FROM`.
   */
  smtpFrom?: string;

  /**
   * Comma-separated host names (or IP addresses) organizations' connections may reach although they resolve to loopback, private or link-local addresses (a mail relay or HR system on the ATS's private network). Unset: connections reach public addresses only; the deployment defaults above are the operator's own and are never checked.
   *
   * `CONNECTOR_ALLOWED_INTERNAL_HOSTS`.
   */
  connectorAllowedInternalHosts?: string;
}
