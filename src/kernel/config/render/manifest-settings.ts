/** Writes the manifest's `config` (what a host reads about each setting) from the schema; the rest of the manifest is kept as it is. */
import { SETTINGS, type SettingSpec } from '../schema';

export const MANIFEST_FILE = 'plugin.manifest.json';

export function renderManifest(manifestText: string, settings: readonly SettingSpec[] = SETTINGS): string {
  const manifest = JSON.parse(manifestText) as Record<string, unknown>;
  return `${JSON.stringify({ ...manifest, config: settings }, null, 2)}\n`;
}
