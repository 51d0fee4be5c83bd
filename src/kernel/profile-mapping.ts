/**
 * Where a provider keeps each profile field, for providers whose JSON differs from ours
 * (PROFILE_PROVIDER_PROFILE_MAPPING). Dotted field paths; lists name their array and,
 * relative to each item, the item's fields. Anything not named keeps our own field name,
 * so the empty mapping reads our shape. Checked once at start; a bad entry names itself.
 */
export type ScalarField = 'id' | 'name' | 'headline' | 'profile_url';
export type ListField = 'skills' | 'credentials' | 'positions';

const ITEM_FIELDS = {
  skills: ['name', 'verified'],
  credentials: ['title', 'issuer', 'verified', 'issued_at'],
  positions: ['title', 'company', 'start_date', 'end_date', 'verified'],
} as const satisfies Record<ListField, readonly string[]>;

const SCALARS: readonly ScalarField[] = ['id', 'name', 'headline', 'profile_url'];
const LISTS = Object.keys(ITEM_FIELDS) as ListField[];

export interface ListMapping {
  path: string;
  fields: Record<string, string>;
}

export interface ProfileMapping {
  scalars: Record<ScalarField, string>;
  lists: Record<ListField, ListMapping>;
}

const FIELD_PATH = /^[A-Za-z0-9_$@-]+(\.[A-Za-z0-9_$@-]+)*$/;

export class ProfileMappingError extends Error {
  constructor(
    readonly entry: string,
    problem: string,
  ) {
    super(`${entry}: ${problem}`);
    this.name = 'ProfileMappingError';
  }
}

function fieldPath(entry: string, value: unknown): string {
  if (typeof value !== 'string' || !FIELD_PATH.test(value)) throw new ProfileMappingError(entry, 'must be a dotted field path such as "user.id"');
  return value;
}

export const IDENTITY_MAPPING: ProfileMapping = parseProfileMapping({});

/** Parses the mapping (JSON text or an object); throws ProfileMappingError naming the bad entry. */
export function parseProfileMapping(input: string | Record<string, unknown>): ProfileMapping {
  let document: unknown = input;
  if (typeof input === 'string') {
    try {
      document = JSON.parse(input);
    } catch {
      throw new ProfileMappingError('(document)', 'is not valid JSON');
    }
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) throw new ProfileMappingError('(document)', 'must be a JSON object');
  const given = document as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(SCALARS as readonly string[]).includes(key) && !(LISTS as readonly string[]).includes(key)) {
      throw new ProfileMappingError(key, `is not a profile field (expected one of ${[...SCALARS, ...LISTS].join(', ')})`);
    }
  }
  const scalars = Object.fromEntries(SCALARS.map((field) => [field, given[field] === undefined ? field : fieldPath(field, given[field])])) as Record<
    ScalarField,
    string
  >;
  const lists = {} as Record<ListField, ListMapping>;
  for (const list of LISTS) {
    const value = given[list];
    if (value === undefined || typeof value === 'string') {
      lists[list] = { path: value === undefined ? list : fieldPath(list, value), fields: Object.fromEntries(ITEM_FIELDS[list].map((f) => [f, f])) };
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new ProfileMappingError(list, 'must be a field path or an object {"path", and item fields}');
    const entries = value as Record<string, unknown>;
    for (const key of Object.keys(entries)) {
      if (key !== 'path' && !(ITEM_FIELDS[list] as readonly string[]).includes(key)) {
        throw new ProfileMappingError(`${list}.${key}`, `is not a field of ${list} (expected path, ${ITEM_FIELDS[list].join(', ')})`);
      }
    }
    lists[list] = {
      path: entries.path === undefined ? list : fieldPath(`${list}.path`, entries.path),
      fields: Object.fromEntries(ITEM_FIELDS[list].map((f) => [f, entries[f] === undefined ? f : fieldPath(`${list}.${f}`, entries[f])])),
    };
  }
  return { scalars, lists };
}

function read(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (!current || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** The provider's answer rearranged into our shape (values untouched; checking comes after). */
export function applyProfileMapping(mapping: ProfileMapping, body: unknown): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const field of SCALARS) result[field] = read(body, mapping.scalars[field]);
  for (const list of LISTS) {
    const { path, fields } = mapping.lists[list];
    const items = read(body, path);
    result[list] = Array.isArray(items)
      ? items.map((item) => {
          const mapped: Record<string, unknown> = {};
          for (const [field, itemPath] of Object.entries(fields)) {
            const found = read(item, itemPath);
            if (found !== undefined) mapped[field] = found;
          }
          return mapped;
        })
      : items;
  }
  return result;
}

/** The provider's own name for a field of our shape (`["positions", 2, "start_date"]` → `employment[2].from`). */
export function providerFieldName(mapping: ProfileMapping, path: readonly PropertyKey[]): string {
  const [head, index, field] = path;
  if (typeof head !== 'string') return '(answer)';
  if ((SCALARS as readonly string[]).includes(head)) return mapping.scalars[head as ScalarField];
  const list = mapping.lists[head as ListField];
  if (!list) return head;
  if (index === undefined) return list.path;
  if (typeof field !== 'string') return `${list.path}[${String(index)}]`;
  return `${list.path}[${String(index)}].${list.fields[field] ?? field}`;
}
