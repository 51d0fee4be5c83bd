/** One row of the benchmark table: a measured rate or latency beside its baseline. */
export interface BenchRow {
  name: string;
  measured: string;
  baseline: string;
  ratio: number | undefined;
  /** Printed instead of the ratio as a percentage (e.g. "2.1×"). */
  ratioText?: string;
  target: string;
  met: boolean | undefined;
}

export function printTable(rows: BenchRow[]): string {
  const header = ['benchmark', 'measured', 'baseline (same run)', 'ratio', 'target', 'met'];
  const body = rows.map((r) => [
    r.name,
    r.measured,
    r.baseline,
    r.ratioText ?? (r.ratio === undefined ? '—' : `${(r.ratio * 100).toFixed(0)}%`),
    r.target,
    r.met === undefined ? '—' : r.met ? 'yes' : 'no',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
