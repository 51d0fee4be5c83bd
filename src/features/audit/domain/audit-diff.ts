/**
 * The field-level change an audited call made to a resource: its state read before the call
 * and its state in the answer, flattened to dotted paths (`settings.reminders.enabled`),
 * only the paths that differ, each side bounded. Secrets are redacted by field name and by
 * value (redact.ts); personal data of candidates never enters (routes about candidates keep
 * no values, see audit-recorder.ts, and fields named like contact details or free text are
 * replaced wherever they sit).
 */
import { canonicalJson } from './audit-chain';
import { REDACTED, redact } from './redact';

/** Fields that hold a person's contact details or a candidate's own words, whatever the resource. */
const PERSONAL_KEY = /(^|_)(emails?|phones?|phone_number|cover_letter|answers|candidate_name|candidate|notes?|message|body)$/i;
export const PERSONAL = '[personal data]';

export const DIFF_LIMITS = { paths: 50, depth: 4, text: 200, bytes: 8_000 } as const;

export interface AuditChange {
  /** The changed paths' values before (absent: the path did not exist). */
  before: Record<string, unknown>;
  /** The changed paths' values after (absent: removed). */
  after: Record<string, unknown>;
  /** More paths changed than were kept, or the values were too large: only the first paths are listed. */
  truncated?: true;
}

function leafValue(key: string, value: unknown): unknown {
  if (PERSONAL_KEY.test(key) && value !== null && value !== undefined && value !== '') return PERSONAL;
  const safe = (redact({ [key]: value }) as Record<string, unknown>)[key];
  if (typeof safe === 'string' && safe.length > DIFF_LIMITS.text) return `${safe.slice(0, DIFF_LIMITS.text)}…`;
  if (Array.isArray(safe) || (safe && typeof safe === 'object')) {
    const text = canonicalJson(safe);
    return text.length > DIFF_LIMITS.text ? `${text.slice(0, DIFF_LIMITS.text)}…` : safe;
  }
  return safe;
}

/** A leaf: its value, to compare, and what the trail may show of it. */
type Leaf = { raw: unknown; shown: unknown };

/** Dotted paths to leaf values (arrays, secrets and objects below the depth limit are leaves). */
export function flatten(value: unknown, prefix = '', depth = 0, out: Map<string, Leaf> = new Map()): Map<string, Leaf> {
  if (value && typeof value === 'object' && !Array.isArray(value) && depth < DIFF_LIMITS.depth) {
    for (const [key, v] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (v && typeof v === 'object' && !Array.isArray(v) && !PERSONAL_KEY.test(key) && (redact({ [key]: 1 }) as Record<string, unknown>)[key] !== REDACTED)
        flatten(v, path, depth + 1, out);
      else if (v !== undefined) out.set(path, { raw: v, shown: leafValue(key, v) });
    }
  }
  return out;
}

/** Timestamps that move on every write say nothing about the change. */
const NOISE = /(^|\.)(updated_at|last_used_at)$/;

/** The difference between the resource before and after; null when neither side is an object or nothing changed. */
export function auditChange(before: unknown, after: unknown): AuditChange | null {
  const a = flatten(before);
  const b = flatten(after);
  if (a.size === 0 && b.size === 0) return null;
  const change: AuditChange = { before: {}, after: {} };
  let paths = 0;
  for (const path of new Set([...a.keys(), ...b.keys()])) {
    if (NOISE.test(path)) continue;
    const was = a.get(path);
    const is = b.get(path);
    // Compared on the values themselves: a secret that changed is listed, shown redacted on both sides.
    if (canonicalJson(was?.raw) === canonicalJson(is?.raw)) continue;
    if (paths === DIFF_LIMITS.paths) {
      change.truncated = true;
      break;
    }
    paths += 1;
    if (was) change.before[path] = was.shown;
    if (is) change.after[path] = is.shown;
  }
  if (paths === 0) return null;
  while (canonicalJson(change).length > DIFF_LIMITS.bytes) {
    const last = Object.keys({ ...change.before, ...change.after }).at(-1)!;
    delete change.before[last];
    delete change.after[last];
    change.truncated = true;
  }
  return change;
}
