/**
 * The grammar of PROFILE_PROVIDER_PROFILE_MAPPING: where a provider keeps each profile
 * field, for providers whose JSON differs from ours. Dotted field paths; lists name their
 * array and, relative to each item, the item's fields. Anything not named keeps our own
 * field name, so the empty mapping reads our shape. Part of the configuration (checked once
 * at start, a bad entry names itself); the profiles feature applies it to answers.
 */
/** `email` and `email_verified` (OpenID Connect's claims) are optional: a verified email prefills the widget's contact field. */
export type ScalarField = 'id' | 'name' | 'headline' | 'profile_url' | 'email' | 'email_verified';
export type ListField = 'skills' | 'credentials' | 'positions';

const ITEM_FIELDS = {
  skills: ['name', 'verified'],
  credentials: ['title', 'issuer', 'verified', 'issued_at'],
  positions: ['title', 'company', 'start_date', 'end_date', 'verified'],
} as const satisfies Record<ListField, readonly string[]>;

export const SCALARS: readonly ScalarField[] = ['id', 'name', 'headline', 'profile_url', 'email', 'email_verified'];
export const LISTS = Object.keys(ITEM_FIELDS) as ListField[];

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
