/**
 * The embedded data folder holds the database, the generated secret key and the demo
 * credentials: only its owner may read it (folders 0700, files 0600), including files an
 * older version created world-readable.
 */
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

export function makePrivateFolder(folder: string): void {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const pending = [folder];
  while (pending.length > 0) {
    const current = pending.pop()!;
    chmodSync(current, 0o700);
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) chmodSync(full, 0o600);
    }
  }
  // Files the embedded database creates from now on: owner only.
  process.umask(process.umask() | 0o077);
}
