/** jsonb comes back parsed from pg and, depending on the path, as text from PGlite. */
export function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
