/**
 * `node dist/bench/profile-summary.js FILE.cpuprofile [N] [--last SECONDS] [--callers NAME]`:
 * where a V8 CPU profile (BENCH_PROFILE=1) spent its busy time: self time by function and
 * by package (or source directory), idle and GC separated. What BENCHMARKS.md quotes as
 * "the profile shows". `--last` keeps only the final seconds (the load, not the seeding
 * before it); `--callers` prints the call paths that led to one function's self time, so
 * native time (a socket write, say) can be charged to the code that asked for it.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SummaryOptions {
  top?: number;
  /** Only samples from the last this many seconds of the profile. */
  lastS?: number;
  /** Print the call paths (up to 6 frames) that led to this function's self time. */
  callers?: string;
}

/** Where self time at `url` is charged: its package, Node module or own source directory. */
export function area(url: string): string {
  if (!url) return '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  if (url.startsWith('node:'))
    return url
      .replace(/^node:(internal\/)?/, 'node:')
      .split('/')
      .slice(0, 2)
      .join('/');
  const own = /\/dist\/(.+)\/[^/]+\.js$/.exec(url);
  return own ? own[1]! : url;
}

const frameName = ({ functionName, url, lineNumber }: ProfileNode['callFrame']) =>
  `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1}` : ''}`.trim();

/** Each sample's time, keeping only the last `lastS` seconds when asked. */
function sampleTimes(profile: Profile, lastS: number | undefined): Map<number, number> {
  const at: number[] = [];
  let t = 0;
  for (const delta of profile.timeDeltas) at.push((t += delta));
  const from = lastS === undefined ? -Infinity : t - lastS * 1e6;
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    if (at[i]! >= from) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return self;
}

export function summarize(file: string, options: SummaryOptions = {}): string {
  const top = options.top ?? 25;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = sampleTimes(profile, options.lastS);
  let idle = 0;
  let total = 0;
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  const byCallers = new Map<string, number>();
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id)!;
    total += us;
    if (callFrame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const name = frameName(callFrame);
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const key = callFrame.functionName.startsWith('(') ? callFrame.functionName : area(callFrame.url);
    byArea.set(key, (byArea.get(key) ?? 0) + us);
    if (options.callers && callFrame.functionName === options.callers) {
      const path: string[] = [];
      for (let up = parent.get(id); up !== undefined && path.length < 6; up = parent.get(up)) path.push(frameName(byId.get(up)!.callFrame));
      const chain = path.join(' ← ');
      byCallers.set(chain, (byCallers.get(chain) ?? 0) + us);
    }
  }
  const busy = total - idle;
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  const window = options.lastS === undefined ? '' : ` (last ${options.lastS} s)`;
  const lines = [
    `${file}`,
    `busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled${window}`,
    '',
    'by package / directory (self time, % of busy):',
  ];
  for (const [k, us] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(us)}  ${k}`);
  lines.push('', 'by function (self time, % of busy):');
  for (const [k, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(us)}  ${k}`);
  if (options.callers) {
    lines.push('', `callers of ${options.callers} (% of busy):`);
    for (const [k, us] of [...byCallers].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(us)}  ${k}`);
  }
  return lines.join('\n');
}

if (require.main === module) {
  const program = new Command('profile-summary')
    .argument('<file>', 'a .cpuprofile written by BENCH_PROFILE=1')
    .argument('[top]', 'rows per table', '25')
    .option('--last <seconds>', 'only the final seconds of the profile')
    .option('--callers <function>', "the call paths behind one function's self time")
    .action((file: string, top: string, flags: { last?: string; callers?: string }) => {
      console.log(summarize(file, { top: Number(top), lastS: flags.last === undefined ? undefined : Number(flags.last), callers: flags.callers }));
    });
  program.parse();
}
