import type { Knex } from 'knex';

/**
 * Rows whose JSON column names `value` as a whole JSON string anywhere in the document:
 * `"usr_abc"` matches the value usr_abc and not usr_abcd. For payloads (events, jobs,
 * sessions) whose shape differs per type.
 */
export function whereJsonMentions(query: Knex.QueryBuilder, column: string, value: string): Knex.QueryBuilder {
  return query.whereRaw('position(? in ??::text) > 0', [JSON.stringify(value), column]);
}

/** Rows whose JSON column names any of `values` (none: no rows). */
export function whereJsonMentionsAny(query: Knex.QueryBuilder, column: string, values: readonly string[]): Knex.QueryBuilder {
  if (values.length === 0) return query.whereRaw('false');
  return query.where((q) => {
    for (const value of values) q.orWhereRaw('position(? in ??::text) > 0', [JSON.stringify(value), column]);
  });
}
