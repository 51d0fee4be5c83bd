/** autocannon with a warm-up, reporting requests/s and latency percentiles of the measured part. */
import autocannon from 'autocannon';
import { cpuMs } from './spawn';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  durationS: number;
  /** CPU the server process spent per successful request during the measured part (ms). */
  serverCpuMsPerRequest?: number;
  /** Successful requests including the warm-up (what a profile of the whole run saw). */
  okWithWarmup?: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  durationS: number;
  warmupS: number;
  /** Builds each request (autocannon's setupRequest): path, headers and body. */
  next(): { path: string; body: string; headers: Record<string, string> };
  /** The server's pid, to report its CPU per request. */
  serverPid?: number;
}

async function once(options: LoadOptions, durationS: number): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: durationS,
    pipelining: 1,
    requests: [
      {
        method: 'POST',
        setupRequest: (request) => {
          const next = options.next();
          return { ...request, method: 'POST', path: next.path, body: next.body, headers: { 'content-type': 'application/json', ...next.headers } };
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    durationS: result.duration,
  };
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupS > 0) await once(options, options.warmupS);
  const before = cpuMs(options.serverPid);
  const result = await once(options, options.durationS);
  const after = cpuMs(options.serverPid);
  if (before !== undefined && after !== undefined && result.ok > 0) result.serverCpuMsPerRequest = (after - before) / result.ok;
  return result;
}

/**
 * Several servers measured in alternating slices (A B A B …, `rounds` each), each warmed up
 * once first: on a machine whose load changes from minute to minute, every server sees
 * the same mix of quiet and busy moments, so their ratio means something. Rates and CPU
 * are summed over the slices; p50 is the request-weighted mean of the slices' p50s, p99
 * the worst slice's.
 */
export async function loadInterleaved(servers: LoadOptions[], rounds: number): Promise<LoadResult[]> {
  const warmups: number[] = [];
  for (const server of servers) warmups.push(server.warmupS > 0 ? (await once(server, server.warmupS)).ok : 0);
  const slices: LoadResult[][] = servers.map(() => []);
  const cpu: number[] = servers.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    for (const [i, server] of servers.entries()) {
      const before = cpuMs(server.serverPid);
      const result = await once(server, Math.max(1, Math.round(server.durationS / rounds)));
      const after = cpuMs(server.serverPid);
      if (before !== undefined && after !== undefined) cpu[i]! += after - before;
      slices[i]!.push(result);
    }
  }
  return slices.map((parts, i) => {
    const ok = parts.reduce((n, p) => n + p.ok, 0);
    const durationS = parts.reduce((n, p) => n + p.durationS, 0);
    return {
      rps: ok / durationS,
      p50: Math.round(parts.reduce((n, p) => n + p.p50 * p.ok, 0) / Math.max(1, ok)),
      p99: Math.max(...parts.map((p) => p.p99)),
      ok,
      non2xx: parts.reduce((n, p) => n + p.non2xx, 0),
      errors: parts.reduce((n, p) => n + p.errors, 0),
      durationS,
      serverCpuMsPerRequest: servers[i]!.serverPid !== undefined && ok > 0 ? cpu[i]! / ok : undefined,
      okWithWarmup: ok + warmups[i]!,
    };
  });
}
