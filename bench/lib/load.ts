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
