/**
 * The host contract: everything a host gives the plugin, and what the plugin gives back.
 * Types only. A host implements PluginHost and calls `activate(host)` from the entry
 * module named in plugin.manifest.json; the manifest's `engines.host` range is checked
 * against `contractVersion`.
 */
import type { Router } from 'express';
import type { Knex } from 'knex';
import type { Config } from '../config';
import type { ListingsDirectory } from '../domain/listings/listing';
import type { Pipeline } from '../domain/pipeline/pipeline';
import type { Disposer } from '../domain/shared/disposer';
import type { Logger } from '../domain/shared/logger';

export type { Listing, ListingQuestion, ListingsDirectory, QuestionType } from '../domain/listings/listing';
export type { Pipeline, PipelineApplication, PipelineCredential } from '../domain/pipeline/pipeline';
export type { Logger } from '../domain/shared/logger';
export type { Disposer } from '../domain/shared/disposer';

/** The version of this contract; a host states which it implements. */
export const HOST_CONTRACT_VERSION = '1.0.0';

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

export interface HostHttp {
  /** Mounts a router under a path of the host's choosing, relative to the plugin's base. */
  mount(path: string, router: Router): Disposer;
}

export interface PluginHost {
  contractVersion: string;
  /** The plugin's parsed configuration (see src/config.ts). */
  config: Config;
  logger: Logger;
  http: HostHttp;
  hooks: HookBus;
  listings: ListingsDirectory;
  pipeline: Pipeline;
  /**
   * A knex instance the plugin may share. Embedded (PGlite) hosts must pass theirs: one
   * PGlite folder admits one writer. Otherwise the plugin connects to DATABASE_URL itself.
   */
  database?: Knex;
}

export interface MountedRouterInfo {
  name: string;
  mountPath: string;
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
  routers: MountedRouterInfo[];
  hooks: HookHandlerInfo[];
  queues: QueueInfo[];
  /** The host fires a hook for an organization; handlers run only where licensed. */
  fireHook(hook: string, organizationId: string, payload: object): Promise<HookResult>;
  /** Starts job processing in this process (embedded mode, or the worker role). */
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

export type ActivatePlugin = (host: PluginHost) => Promise<PluginInstance>;
