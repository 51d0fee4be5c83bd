/**
 * (1) The apply endpoint (SPEC 4.1) under load beside the baseline server (Express, one
 * INSERT, one BullMQ add), both in processes of their own on the same PostgreSQL and
 * Redis, measured in the same run at the same concurrency, in alternating slices. Every request is a new
 * application: (organization, listing, candidate) rotates through seeded listings.
 */
import path from 'node:path';
import { PACKAGE_ROOT } from '../src/platform/manifest/manifest';
import { loadInterleaved, type LoadOptions, type LoadResult } from './lib/load';
import { freePort, startNode, waitForMessage } from './lib/spawn';
import { ANSWERS, CANDIDATES, type Product } from './product';

export interface ApplyResult {
  apply: LoadResult;
  baseline: LoadResult;
  connections: number;
  /** The API process's resident set size right after the run (MB). */
  apiRssMb?: number;
  apiHeap?: { usedMb: number; totalMb: number };
}

/** A process's resident set size (MB) from /proc; undefined off Linux. */
function rssMb(pid: number | undefined): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export async function benchApply(product: Product, options: { connections: number; durationS: number; warmupS: number; rounds: number }): Promise<ApplyResult> {
  // The baseline server on the same database server (its own table) and Redis, running
  // beside the API; they take turns under load (loadInterleaved).
  const port = await freePort();
  const baselineServer = startNode('baseline-server', path.join(PACKAGE_ROOT, 'dist/bench/servers/baseline-server.js'), [], {
    PORT: String(port),
    DATABASE_URL: product.database.url,
    REDIS_URL: product.redisUrl,
  });
  await waitForMessage(baselineServer);
  let n = 0;
  const baselineLoad: LoadOptions = {
    url: `http://127.0.0.1:${port}`,
    ...options,
    serverPid: baselineServer.child.pid,
    next: () => ({
      path: '/apply',
      headers: {},
      body: JSON.stringify({ profile_user_id: CANDIDATES[n++ % CANDIDATES.length]!.id, cover_letter: 'Benchmark', answers: ANSWERS }),
    }),
  };

  // Unique (organization, listing, candidate) per request: candidates fastest, then organizations, then listings.
  const orgs = product.organizations;
  const combinations = orgs.length * CANDIDATES.length * Math.min(...orgs.map((o) => o.listingIds.length));
  let i = 0;
  const applyLoad: LoadOptions = {
    url: product.baseUrl,
    ...options,
    serverPid: product.api?.child.pid,
    next: () => {
      const k = i++ % combinations; // wraps only if the seeding was too small; duplicates then show as non-2xx
      const candidate = CANDIDATES[k % CANDIDATES.length]!;
      const org = orgs[Math.floor(k / CANDIDATES.length) % orgs.length]!;
      const listingId = org.listingIds[Math.floor(k / (CANDIDATES.length * orgs.length))]!;
      return {
        path: `/v1/opportunities/listings/${listingId}/applications/profile`,
        headers: { authorization: `Bearer ${org.apiKey}` },
        body: JSON.stringify({ profile_user_id: candidate.id, cover_letter: 'Benchmark', answers: ANSWERS }),
      };
    },
  };
  const [baseline, apply] = await loadInterleaved([baselineLoad, applyLoad], options.rounds);
  await baselineServer.stop('SIGTERM');
  return { apply: apply!, baseline: baseline!, connections: options.connections, apiRssMb: rssMb(product.api?.child.pid), apiHeap: await heap(product) };
}

/** The API's V8 heap (used / total, MB) from its own /metrics, to tell the heap from the rest of the RSS. */
async function heap(product: Product): Promise<{ usedMb: number; totalMb: number } | undefined> {
  try {
    const response = await fetch(`${product.baseUrl}/metrics`, { headers: { authorization: `Bearer ${product.env.OPERATOR_API_KEY}` } });
    const text = await response.text();
    const gauge = (name: string) => Number(new RegExp(`^hiring_integrations_${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]) / 2 ** 20;
    const usedMb = gauge('nodejs_heap_size_used_bytes');
    const totalMb = gauge('nodejs_heap_size_total_bytes');
    return Number.isFinite(usedMb) && Number.isFinite(totalMb) ? { usedMb, totalMb } : undefined;
  } catch {
    return undefined;
  }
}
