import type { z } from 'zod';
import { DomainError } from '../../kernel/errors';

/** Turns the first zod issue into a 400 naming the offending parameter. */
export function validationError(error: z.ZodError, location: 'body' | 'query' | 'path', input: unknown): DomainError {
  const issue = error.issues[0]!;
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys') {
    const param = [...path, issue.keys[0]].join('.');
    return new DomainError('invalid', 'parameter_unknown', `Received unknown parameter: ${param}`, { param });
  }
  const param = path.join('.') || undefined;
  const given = issue.path.reduce<unknown>(
    (value, key) => (value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined),
    input,
  );
  const missing = issue.code === 'invalid_type' && given === undefined;
  if (missing) {
    return new DomainError('invalid', 'parameter_missing', `Missing required parameter: ${param ?? location}`, { param });
  }
  const where = param ?? (location === 'body' ? 'request body' : location);
  return new DomainError('invalid', 'parameter_invalid', `Invalid ${where}: ${issue.message}`, { param });
}

export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, location: 'body' | 'query' | 'path'): T {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, location, value);
  return result.data;
}

/** The dotted path of the first string holding a NUL character, which PostgreSQL text cannot store. */
export function findNulCharacter(value: unknown, path: string[] = []): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || 'value' : undefined;
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, key].join('.');
      const found = findNulCharacter(inner, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

/** Rejects NUL characters anywhere in the request before any handler can store them. */
export function rejectNulCharacters(input: { params: unknown; query: unknown; body: unknown }): void {
  for (const location of ['params', 'query', 'body'] as const) {
    const param = findNulCharacter(input[location]);
    if (param) throw new DomainError('invalid', 'parameter_invalid', `Invalid ${param}: NUL characters are not allowed`, { param });
  }
}
