/**
 * PGlite takes no lock on its folder, and two processes writing one folder lose writes.
 * The embedded server holds this pid file; other commands refuse to open the folder
 * while that process lives.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const lockFile = (dataDir: string) => path.join(dataDir, 'server.pid');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function embeddedServerPid(dataDir: string): number | undefined {
  const file = lockFile(dataDir);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid !== process.pid && alive(pid) ? pid : undefined;
}

export function acquireEmbeddedLock(dataDir: string): () => void {
  const running = embeddedServerPid(dataDir);
  if (running) throw new Error(`Another process (pid ${running}) is using the embedded database in ${dataDir}`);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(lockFile(dataDir), String(process.pid));
  return () => rmSync(lockFile(dataDir), { force: true });
}
