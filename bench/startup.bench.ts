/**
 * (5) `npm start` on a built tree until GET /healthz answers: the whole command a user
 * types (npm, the build check, module loading, the migration check, the plugin's
 * activation, listen), on the benchmark's database and Redis, on a free port. Timed
 * `samples` times; the slowest is the one compared with the target.
 */
import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../src/platform/manifest/manifest';
import { freePort, RESULTS_DIR } from './lib/spawn';
import type { Product } from './product';

export interface StartupResult {
  samplesMs: number[];
  maxMs: number;
  medianMs: number;
}

async function once(product: Product): Promise<number> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const fd = openSync(path.join(RESULTS_DIR, 'npm-start.log'), 'a');
  const started = process.hrtime.bigint();
  // Its own process group, so npm and the server it starts stop together.
  const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['start'], {
    cwd: PACKAGE_ROOT,
    env: { ...product.env, PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), BASE_URL: baseUrl },
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (exited) throw new Error(`npm start exited before /healthz answered; see bench-results/npm-start.log`);
      try {
        const response = await fetch(`${baseUrl}/healthz`);
        await response.arrayBuffer();
        if (response.ok) break;
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) throw new Error('npm start: /healthz did not answer within 60 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    return Number(process.hrtime.bigint() - started) / 1e6;
  } finally {
    if (!exited) {
      const gone = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 15_000);
      await gone;
      clearTimeout(timer);
    }
  }
}

export async function benchStartup(product: Product, options: { samples: number }): Promise<StartupResult> {
  const samplesMs: number[] = [];
  for (let i = 0; i < options.samples; i++) samplesMs.push(await once(product));
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return { samplesMs, maxMs: sorted[sorted.length - 1]!, medianMs: sorted[Math.floor(sorted.length / 2)]! };
}
