/**
 * Folders a test run needs (data folders, catalogs, packed tarballs) under the system's
 * temporary directory, named hi-<purpose>-…, and removed when the run ends (setup.ts's
 * root afterAll), so runs leave nothing behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const created: string[] = [];

export function testDir(purpose: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `hi-${purpose}-`));
  created.push(dir);
  return dir;
}

/** Removes every folder testDir made; a folder still in use by a stopped child is retried briefly. */
export function removeTestDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
}
