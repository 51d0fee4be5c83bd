/** Applies the configured profile mapping (its grammar: kernel/config/profile-mapping) to a provider's answer. */
import { LISTS, SCALARS, type ListField, type ProfileMapping, type ScalarField } from '../../../kernel/config/profile-mapping';

export { IDENTITY_MAPPING, parseProfileMapping, ProfileMappingError, type ProfileMapping } from '../../../kernel/config/profile-mapping';

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
