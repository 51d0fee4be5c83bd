/**
 * `node dist/bench/profile-compare.js A.cpuprofile REQUESTS_A B.cpuprofile REQUESTS_B [N]`:
 * two servers' CPU profiles side by side, as busy microseconds per request by package (or
 * source directory), sorted by what A spends beyond B. Samples are taken over the window
 * both processes were alive (B's lifetime, minus its start-up), so with the apply
 * benchmark's alternating slices each profile covers its own server's load. With
 * BENCH_PROFILE=1, `npm run bench` writes this for the apply endpoint against its
 * baseline to bench-results/apply-profile-compare.md.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { area } from './profile-summary';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Where a frame's self time is charged: its package, Node module, own directory, or the native/VM function. */
function where({ functionName, url }: ProfileNode['callFrame']): string {
  if (functionName.startsWith('(')) return functionName;
  return url ? area(url) : `(native ${functionName || 'code'})`;
}

/** Busy microseconds by area between two absolute profile times (V8's monotonic clock, shared by the processes of one machine). */
function busyByArea(profile: Profile, from: number, to: number): { areas: Map<string, number>; busy: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const areas = new Map<string, number>();
  let at = profile.startTime;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at > to) return;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') return;
    busy += delta;
    const key = where(frame);
    areas.set(key, (areas.get(key) ?? 0) + delta);
  });
  return { areas, busy };
}

export interface CompareInput {
  file: string;
  label: string;
  requests: number;
}

/** A markdown table: µs per request by area for both, and A's extra, largest first. */
export function compareProfiles(a: CompareInput, b: CompareInput, top = 25): string {
  const [pa, pb] = [a, b].map((x) => JSON.parse(readFileSync(x.file, 'utf8')) as Profile) as [Profile, Profile];
  // B's lifetime without its first 1.5 s (module loading, table setup).
  const from = pb.startTime + 1.5e6;
  const to = pb.endTime;
  const ta = busyByArea(pa, from, to);
  const tb = busyByArea(pb, from, to);
  const per = (us: number, n: number) => us / Math.max(1, n);
  const rows = [...new Set([...ta.areas.keys(), ...tb.areas.keys()])]
    .map((k) => ({ k, a: per(ta.areas.get(k) ?? 0, a.requests), b: per(tb.areas.get(k) ?? 0, b.requests) }))
    .sort((x, y) => y.a - y.b - (x.a - x.b));
  const f = (n: number) => n.toFixed(1);
  const lines = [
    `Busy time per request over ${((to - from) / 1e6).toFixed(1)} s: ${a.label} ${f(per(ta.busy, a.requests))} µs (${a.requests} requests), ${b.label} ${f(per(tb.busy, b.requests))} µs (${b.requests} requests). Busy includes time a thread waited for a core inside a system call.`,
    '',
    `| where (self time) | ${a.label} µs/request | ${b.label} µs/request | extra |`,
    '|---|---:|---:|---:|',
    ...rows.slice(0, top).map((r) => `| ${r.k} | ${f(r.a)} | ${f(r.b)} | ${f(r.a - r.b)} |`),
  ];
  return lines.join('\n');
}

if (require.main === module) {
  new Command('profile-compare')
    .argument('<a>', "the first server's .cpuprofile")
    .argument('<requestsA>', 'requests it answered while profiled')
    .argument('<b>', "the second server's .cpuprofile (the baseline)")
    .argument('<requestsB>', 'requests it answered while profiled')
    .argument('[top]', 'rows', '25')
    .action((fa: string, na: string, fb: string, nb: string, top: string) => {
      console.log(compareProfiles({ file: fa, label: 'A', requests: Number(na) }, { file: fb, label: 'B', requests: Number(nb) }, Number(top)));
    })
    .parse();
}
