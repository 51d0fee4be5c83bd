/**
 * `node dist/bench/profile-summary.js FILE.cpuprofile [N]`: where a V8 CPU profile
 * (BENCH_PROFILE=1) spent its busy time: self time by function and by package (or source
 * directory), idle and GC separated. What BENCHMARKS.md quotes as "the profile shows".
 */
import { readFileSync } from 'node:fs';

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

function area(url: string): string {
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

export function summarize(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  let idle = 0;
  let total = 0;
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    total += us;
    if (functionName === '(idle)' || functionName === '(program)') {
      if (functionName === '(idle)') idle += us;
    }
    if (functionName === '(idle)') continue;
    const name = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1}` : ''}`.trim();
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
    const key = functionName.startsWith('(') ? functionName : area(url);
    byArea.set(key, (byArea.get(key) ?? 0) + us);
  }
  const busy = total - idle;
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  const lines = [
    `${file}`,
    `busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled`,
    '',
    'by package / directory (self time, % of busy):',
  ];
  for (const [k, us] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(us)}  ${k}`);
  lines.push('', 'by function (self time, % of busy):');
  for (const [k, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`  ${pct(us)}  ${k}`);
  return lines.join('\n');
}

if (require.main === module) {
  const [file, n] = process.argv.slice(2);
  if (!file) {
    console.error('usage: profile-summary FILE.cpuprofile [TOP]');
    process.exit(2);
  }
  console.log(summarize(file, Number(n ?? 25)));
}
