/**
 * The host contract: everything a host gives the plugin, and what the plugin gives back.
 * Types only. A host implements PluginHost and calls `activate(host)` from the entry
 * module named in plugin.manifest.json; the manifest's `engines.host` range is checked
 * against `contractVersion`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Knex } from 'knex';
import type { Config } from '../kernel/config';
import type { ListingsDirectory } from '../features/listings/domain/listing';
import type { ListingsManager } from '../features/listings/domain/listing-management';
import type { Pipeline } from '../features/applications/domain/pipeline';
import type { Disposer } from '../kernel/disposer';
import type { Logger } from '../kernel/logger';
import type { HrisConnector, NotificationConnector, PayrollFileConnector, SmsConnector, VideoMeetingConnector } from '../features/hooks/domain/connectors';

export type { Listing, ListingQuestion, ListingsCaching, ListingsDirectory, QuestionType } from '../features/listings/domain/listing';
export type { ListingChange, ListingFields, ListingQueryOptions, ListingsManager, ListingStatus } from '../features/listings/domain/listing-management';
export type { Pipeline, PipelineApplication, PipelineCredential, PipelinePosition } from '../features/applications/domain/pipeline';
export type { Logger } from '../kernel/logger';
export type {
  Delivery,
  DeliveryBase,
  DeliveredFile,
  EmailMessage,
  EmployeeDeactivation,
  EmployeeRecord,
  HrisConnector,
  Meeting,
  MeetingRequest,
  NotificationConnector,
  PayrollFile,
  PayrollFileConnector,
  SmsConnector,
  SmsMessage,
  SyncedEmployee,
  VideoMeetingConnector,
} from '../features/hooks/domain/connectors';
export type { Disposer } from '../kernel/disposer';

/**
 * The version of this contract; a host states which it implements (semver: a minor version
 * only adds or loosens, so a host on any 1.x activates; docs/embedding.md lists the changes).
 */
export const HOST_CONTRACT_VERSION = '1.1.0';

export interface HookEvent<T = Record<string, unknown>> {
  hook: string;
  organizationId: string;
  payload: T;
}

export type HookListener = (event: HookEvent) => Promise<void>;

/** The host's hook bus: the plugin listens to host hooks and publishes its own events. */
export interface HookBus {
  on(hook: string, listener: HookListener): Disposer;
  emit(hook: string, organizationId: string, payload: object): Promise<void>;
}

/**
 * An Express router (connect-style handler). Express hosts pass it to `app.use(path, router)`;
 * it expects Express's request and response (Express must be the host's HTTP layer).
 */
export type HttpRouter = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

export interface HostHttp {
  /**
   * Mounts a router at `path` on the host's app, e.g. `app.use(path, router)`. `path` is
   * already the full path: the configured mount path (`config.mountPath`) plus the
   * manifest's mountPath of the router, so the host adds nothing.
   */
  mount(path: string, router: HttpRouter): Disposer;
}

/**
 * Which part of the plugin runs in this process (one database and Redis for all):
 * `all` routers and, once startWorkers() is called, job workers (the standalone host; the
 * only role without Redis, where jobs run in-process); `api` routers only, jobs go to
 * Redis; `worker` job workers only (started by activate), no routers.
 */
export type PluginRole = 'all' | 'api' | 'worker';

export interface ActivateOptions {
  /** Default `all`. */
  role?: PluginRole;
  /**
   * `offer` (default): health, readiness, metrics and the job dashboard are not mounted;
   * the host mounts `PluginInstance.operations` where it wants. `mount`: they are mounted
   * under the mount path like every other router (the standalone host: /healthz, /metrics).
   */
  operations?: 'offer' | 'mount';
}

export interface PluginHost {
  contractVersion: string;
  /** The plugin's parsed configuration (see src/kernel/config). */
  config: Config;
  logger: Logger;
  /** Required by the `all` and `api` roles; a worker process has no routers to mount. */
  http?: HostHttp;
  /**
   * The host's hook bus. The plugin publishes its events on it (application.submitted,
   * license.*, …) and listens on it for the hooks its handlers take (interview.scheduled,
   * …), running each gated handler as fireHook does.
   */
  hooks: HookBus;
  listings: ListingsDirectory;
  /** Optional: listings the plugin's listings API (/v1/listings) may create and change (the standalone host offers its own). */
  managedListings?: ListingsManager;
  pipeline: Pipeline;
  /**
   * A knex instance the plugin may share. Embedded (PGlite) hosts must pass theirs: one
   * PGlite folder admits one writer. Otherwise the plugin connects to DATABASE_URL itself.
   */
  database?: Knex;
  /**
   * Optional: the host's own implementations of connector ports (its mail service, its
   * SMS gateway, …). Used for every organization that has no verified connection of that
   * kind, before the operator's deployment default. A step succeeds only when the host's
   * implementation resolves: resolve with the counterpart's reference once it acknowledged;
   * throw to fail (see HostConnectors).
   */
  connectors?: HostConnectors;
}

/**
 * Connector ports a host may implement. Each call carries an idempotency key: the same key
 * must not send twice. Answer `{ deliveryId, reference }` (reference: the counterpart's id
 * of what it accepted). A thrown error is retried with backoff; an error carrying
 * `permanent: true` (and a stable `code`, e.g. recipient_rejected) fails the run at once.
 */
export interface HostConnectors {
  email?: NotificationConnector;
  sms?: SmsConnector;
  video_meetings?: VideoMeetingConnector;
  /**
   * @deprecated Since contract 1.1.0 nothing calls it: offers and agreements are signed by the
   * plugin itself (esign.send_offer, esign.send_agreement; docs/esign.md). Still accepted and
   * ignored, with one warning at activation; the property goes in contract 2.0.0.
   */
  esign?: unknown;
  hris?: HrisConnector;
  payroll_files?: PayrollFileConnector;
}

export interface MountedRouterInfo {
  name: string;
  /** The full path on the host (mount path included). */
  mountPath: string;
}

/** A router the plugin offers instead of mounting it: health/readiness, metrics, the job dashboard. */
export interface OfferedRouter {
  name: 'health' | 'metrics' | 'jobs-dashboard' | (string & {});
  /** Where the standalone host mounts it (the manifest's mountPath); routes are relative to where the host mounts it. */
  mountPath: string;
  description: string;
  router: HttpRouter;
}

export interface OrganizationInfo {
  id: string;
  name: string;
  /** The host's id for its tenant, unique across organizations; null when none was given. */
  externalId: string | null;
  createdAt: Date;
}

/**
 * Organizations from host code, to map the host's tenants to the plugin's organizations.
 * Refusals throw an Error with a `code` (`invalid_name`, `invalid_external_id`,
 * `organization_exists`, `resource_missing`, `invalid_key_prefix`).
 */
export interface HostOrganizations {
  /** Creates an organization and its first API key (`hik_…`, returned once, stored only as a digest). */
  create(input: { name: string; externalId?: string }): Promise<{ organization: OrganizationInfo; apiKey: string }>;
  get(organizationId: string): Promise<OrganizationInfo | undefined>;
  findByExternalId(externalId: string): Promise<OrganizationInfo | undefined>;
  /** A new API key; the older ones keep working until `previousKeysExpireAt` (API_KEY_ROTATION_GRACE_SECONDS). */
  issueKey(organizationId: string): Promise<{ apiKey: string; previousKeysExpireAt: Date }>;
  /** Revokes a key (the key or its `hik_<12>` prefix) at once. */
  revokeKey(keyOrPrefix: string): Promise<void>;
}

export interface HookHandlerInfo {
  name: string;
  hook: string;
  action: string;
}

export interface QueueInfo {
  name: string;
  concurrency: number;
}

export interface HookHandlerOutcome {
  handler: string;
  /** The action key that gates the handler. */
  action: string;
  /** ran; skipped (no active license: `license_inactive`, or the payload was refused); failed (retrying may help). */
  status: 'ran' | 'skipped' | 'failed';
  reason?: string;
  /** What a handler that ran reports (ids it created, a job and its time). */
  result?: Record<string, unknown>;
}

export interface HookResult {
  handled: string[];
  skipped: string[];
  failed: string[];
  /** One per handler registered for the hook, in the order they ran. */
  outcomes: HookHandlerOutcome[];
}

export interface ReadinessReport {
  ok: boolean;
  checks: Record<string, 'ok' | string>;
}

/** What `activate(host)` returns: exactly what the manifest names, plus lifecycle. */
export interface PluginInstance {
  id: string;
  version: string;
  role: PluginRole;
  /** The routers the plugin mounted through `host.http`. */
  routers: MountedRouterInfo[];
  /** Health/readiness, metrics and the job dashboard, for the host to mount where it wants. */
  operations: OfferedRouter[];
  hooks: HookHandlerInfo[];
  queues: QueueInfo[];
  organizations: HostOrganizations;
  /**
   * The host fires a hook for an organization and gets what ran; handlers run only where
   * licensed. Emitting the hook on the host's bus does the same without the answer; an
   * event both emitted and fired (same hook, organization and payload, within 10 s) runs once.
   */
  fireHook(hook: string, organizationId: string, payload: object): Promise<HookResult>;
  /** Starts job processing in this process (role `all`; the `worker` role starts them itself); once per activation. */
  startWorkers(options?: { concurrency?: number }): Promise<void>;
  readiness(): Promise<ReadinessReport>;
  /**
   * Billing collected by the host (BILLING_COLLECTION=host): what happened to a finalized
   * invoice. `failed` makes the organization past_due; `paid` restores it.
   */
  reportInvoicePayment?(invoiceId: string, outcome: InvoicePaymentReport): Promise<void>;
  /** Runs every disposer in reverse order: routers, listeners, workers, queues, connections. */
  dispose(): Promise<void>;
}

export type InvoicePaymentReport = { status: 'paid'; reference?: string } | { status: 'failed'; reason: string } | { status: 'uncollectible' };

export type ActivatePlugin = (host: PluginHost, options?: ActivateOptions) => Promise<PluginInstance>;
