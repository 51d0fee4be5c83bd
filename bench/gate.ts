/**
 * (2) Gate checks per second beside a plain Map lookup, measured by the hooks module's own
 * benchmark (bench/gate.bench.ts, issue 5). It is loaded at run time so that this runner
 * builds and runs before that module exists; its result is read by shape.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BenchRow } from './report';

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

function pick(result: Record<string, unknown>, pattern: RegExp): number | undefined {
  for (const [key, value] of Object.entries(result)) if (pattern.test(key) && typeof value === 'number' && Number.isFinite(value)) return value;
  return undefined;
}

export async function gateRows(): Promise<{ rows: BenchRow[]; raw: unknown }> {
  const file = path.join(__dirname, 'gate.bench.js');
  if (!existsSync(file)) {
    return {
      rows: [
        {
          name: 'gate checks (checks/s)',
          measured: 'not measured',
          baseline: 'bench/gate.bench.ts (issue 5) is not in the tree',
          ratio: undefined,
          target: '≥ 30%',
          met: undefined,
        },
      ],
      raw: undefined,
    };
  }
  const module = require(file) as Record<string, unknown>;
  const run = Object.values(module).find((v): v is (options?: object) => Promise<unknown> => typeof v === 'function');
  if (!run) throw new Error('bench/gate.bench.ts exports no function');
  const result = (await run({})) as Record<string, unknown> | BenchRow[];
  if (Array.isArray(result)) return { rows: result, raw: result };
  const gate = pick(result, /^gateChecksPerSec$/) ?? pick(result, /gate/i);
  const map = pick(result, /^mapLookupsPerSec$/) ?? pick(result, /map/i);
  if (gate === undefined || map === undefined) {
    return {
      rows: [
        {
          name: 'gate checks (checks/s)',
          measured: JSON.stringify(result).slice(0, 80),
          baseline: '(unrecognized result shape)',
          ratio: undefined,
          target: '≥ 30%',
          met: undefined,
        },
      ],
      raw: result,
    };
  }
  return {
    rows: [
      {
        name: 'hook gate checks, warm entitlement cache (checks/s)',
        measured: `${fmt(gate)} /s`,
        baseline: `${fmt(map)} /s (plain Map lookup)`,
        ratio: gate / map,
        target: '≥ 30%',
        met: gate / map >= 0.3,
      },
    ],
    raw: result,
  };
}
