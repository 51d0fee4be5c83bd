/** Loads plugin.manifest.json and validates it against its JSON Schema. */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SettingSpec } from '../../kernel/config';
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

/** The package root: three levels above dist/src/platform/manifest (or two above src/platform/manifest). */
export const PACKAGE_ROOT = path.resolve(__dirname, __dirname.includes(`${path.sep}dist${path.sep}`) ? '../../../..' : '../../..');

export function validateManifest(value: unknown): { valid: true; manifest: Manifest } | { valid: false; errors: string[] } {
  // Loaded here, not at the top: compiling the schema costs a start about 0.3 s, and a
  // manifest already validated in this form is not validated again (loadManifest).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { default: Ajv2020 } = require('ajv/dist/2020') as typeof import('ajv/dist/2020');
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  const validate = ajv.compile(schema);
  if (validate(value)) return { valid: true, manifest: value as unknown as Manifest };
  return { valid: false, errors: (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`) };
}

let cached: Manifest | undefined;

/** Where the digest of the last manifest (and schema) found valid is kept, beside the build. */
const VALIDATED_STAMP = path.join(PACKAGE_ROOT, 'dist', '.manifest-validated');

export function loadManifest(file = path.join(PACKAGE_ROOT, 'plugin.manifest.json')): Manifest {
  const shipped = file === path.join(PACKAGE_ROOT, 'plugin.manifest.json');
  if (cached && shipped) return cached;
  const text = readFileSync(file, 'utf8');
  const value = JSON.parse(text) as unknown;
  const digest = createHash('sha256').update(text).update('\0').update(JSON.stringify(schema)).digest('hex');
  if (shipped && validatedBefore(digest)) return (cached = value as Manifest);
  const result = validateManifest(value);
  if (!result.valid) throw new Error(`Invalid plugin manifest ${file}:\n  ${result.errors.join('\n  ')}`);
  if (shipped) {
    cached = result.manifest;
    try {
      writeFileSync(VALIDATED_STAMP, digest);
    } catch {
      /* a read-only install validates on every start */
    }
  }
  return result.manifest;
}

function validatedBefore(digest: string): boolean {
  try {
    return readFileSync(VALIDATED_STAMP, 'utf8') === digest;
  } catch {
    return false;
  }
}
