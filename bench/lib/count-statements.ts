/**
 * Preloaded (`node --require`) into the product's processes by the reminder benchmark, never
 * by the product itself: counts every statement the process sends to PostgreSQL (each call
 * of pg's `Client.query`, `BEGIN` and `COMMIT` included) by its text, with the time from the
 * call to its answer (queueing on the connection included), and answers both since the last
 * ask over IPC: `'bench:statements'` → `{statements: {sql: n}, latencyMs: {sql: total ms}}`.
 */
import pg from 'pg';

const counts = new Map<string, number>();
const latency = new Map<string, number>();
const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string; name?: string } | undefined;
  const sql = typeof first === 'string' ? first : (first?.text ?? first?.name ?? '?');
  counts.set(sql, (counts.get(sql) ?? 0) + 1);
  const started = process.hrtime.bigint();
  const answered = () => latency.set(sql, (latency.get(sql) ?? 0) + Number(process.hrtime.bigint() - started) / 1e6);
  // knex passes a callback (the last argument); without one, pg answers a promise.
  const last = args.length - 1;
  if (typeof args[last] === 'function') {
    const callback = args[last] as (...a: unknown[]) => unknown;
    args[last] = (...a: unknown[]) => {
      answered();
      return callback(...a);
    };
    return query.apply(this, args);
  }
  const result = query.apply(this, args);
  if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then(answered, answered);
  return result;
} as typeof pg.Client.prototype.query;

process.on('message', (message) => {
  if (message !== 'bench:statements') return;
  process.send?.({ statements: Object.fromEntries(counts), latencyMs: Object.fromEntries(latency) });
  counts.clear();
  latency.clear();
});
