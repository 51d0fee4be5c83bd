/** Loads plugin.manifest.json and validates it against its JSON Schema. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import type { SettingSpec } from '../config';
import schema from './manifest.schema.json';

export interface ManifestRouter {
  name: string;
  mountPath: string;
  description?: string;
  /** Offered to the host (PluginInstance.operations) instead of mounted, unless it asks for them to be mounted. */
  offered?: boolean;
}

export interface ManifestHook {
  name: string;
  hook: string;
  action: string;
  description?: string;
}

export interface ManifestQueue {
  name: string;
  processor: string;
  concurrency: number;
  attempts: number;
  backoffMs: number;
  description?: string;
}

export interface Manifest {
  id: string;
  name: string;
  description?: string;
  version: string;
  engines: { host: string; node?: string };
  entry: string;
  routers: ManifestRouter[];
  hooks: ManifestHook[];
  events?: string[];
  queues: ManifestQueue[];
  migrations: { directory: string; tableName: string; loadExtensions?: string[] };
  widget: { element: string; path: string; asset: string };
  config: (SettingSpec & { standaloneOnly?: boolean })[];
}

/** The package root: two levels above dist/src/manifest (or src/manifest). */
export const PACKAGE_ROOT = path.resolve(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? '../../..' : '../..');

export function validateManifest(value: unknown): { valid: true; manifest: Manifest } | { valid: false; errors: string[] } {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  const validate = ajv.compile(schema);
  if (validate(value)) return { valid: true, manifest: value as unknown as Manifest };
  return { valid: false, errors: (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`) };
}

let cached: Manifest | undefined;

export function loadManifest(file = path.join(PACKAGE_ROOT, 'plugin.manifest.json')): Manifest {
  if (cached && file === path.join(PACKAGE_ROOT, 'plugin.manifest.json')) return cached;
  const result = validateManifest(JSON.parse(readFileSync(file, 'utf8')));
  if (!result.valid) throw new Error(`Invalid plugin manifest ${file}:\n  ${result.errors.join('\n  ')}`);
  cached = result.manifest;
  return result.manifest;
}
