/**
 * Preloaded (`node --require`) into the product's processes by the reminder benchmark, never
 * by the product itself: counts every statement the process sends to PostgreSQL (each call
 * of pg's `Client.query`, `BEGIN` and `COMMIT` included) by its text, and answers the counts
 * since the last ask over IPC: `'bench:statements'` → `{statements: {sql: n}}`.
 */
import pg from 'pg';

const counts = new Map<string, number>();
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string; name?: string } | undefined;
  const sql = typeof first === 'string' ? first : (first?.text ?? first?.name ?? '?');
  counts.set(sql, (counts.get(sql) ?? 0) + 1);
  return query.apply(this, args);
} as typeof pg.Client.prototype.query;

process.on('message', (message) => {
  if (message !== 'bench:statements') return;
  process.send?.({ statements: Object.fromEntries(counts) });
  counts.clear();
});
