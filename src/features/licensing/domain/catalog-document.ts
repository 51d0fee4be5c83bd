/**
 * The versioned catalog data file (src/features/licensing/catalog.v1.json and operators' own files):
 * its shape and its checks. Syncing a document upserts what it lists and removes nothing,
 * so an operator can add groups, actions and packages without touching code.
 */
import { z } from 'zod';
import { ACTION_KEY_PATTERN, GROUP_KEY_PATTERN, groupOf, PACKAGE_SLUG_PATTERN } from './action-key';

const price = z.object({ amount: z.number().int().min(0).max(100_000_000), currency: z.string().regex(/^[A-Z]{3}$/) }).strict();

const action = z.object({ key: z.string().regex(ACTION_KEY_PATTERN), name: z.string().min(1).max(200), description: z.string().max(2000), price }).strict();

const group = z
  .object({ key: z.string().regex(GROUP_KEY_PATTERN), name: z.string().min(1).max(200), description: z.string().max(2000), actions: z.array(action) })
  .strict();

const catalogPackage = z
  .object({
    slug: z.string().regex(PACKAGE_SLUG_PATTERN).max(100),
    name: z.string().min(1).max(200),
    description: z.string().max(2000),
    price,
    actions: z.array(z.string().regex(ACTION_KEY_PATTERN)).min(1),
  })
  .strict();

export const catalogDocumentSchema = z
  .object({
    version: z.number().int().min(1),
    currency: z.string().regex(/^[A-Z]{3}$/),
    platform_fee: price,
    groups: z.array(group),
    packages: z.array(catalogPackage).default([]),
  })
  .strict();

export type CatalogDocument = z.infer<typeof catalogDocumentSchema>;

export class CatalogDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogDocumentError';
  }
}

/**
 * Parses and cross-checks a document: one currency throughout, each action inside the
 * group its key names, no duplicates, and package actions that exist in this document
 * or in `knownActionKeys` (the catalog already in the database).
 */
export function parseCatalogDocument(input: unknown, knownActionKeys: ReadonlySet<string> = new Set()): CatalogDocument {
  const parsed = catalogDocumentSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CatalogDocumentError(`${issue.path.join('.') || 'document'}: ${issue.message}`);
  }
  const doc = parsed.data;
  const currencyOf = (where: string, c: string) => {
    if (c !== doc.currency) throw new CatalogDocumentError(`${where}: currency ${c} differs from the catalog's ${doc.currency}`);
  };
  currencyOf('platform_fee', doc.platform_fee.currency);
  const keys = new Set<string>();
  const groups = new Set<string>();
  for (const g of doc.groups) {
    if (groups.has(g.key)) throw new CatalogDocumentError(`group ${g.key} is listed twice`);
    groups.add(g.key);
    for (const a of g.actions) {
      if (groupOf(a.key) !== g.key) throw new CatalogDocumentError(`action ${a.key} is not in group ${g.key} (its key names group ${groupOf(a.key)})`);
      if (keys.has(a.key)) throw new CatalogDocumentError(`action ${a.key} is listed twice`);
      keys.add(a.key);
      currencyOf(a.key, a.price.currency);
    }
  }
  const slugs = new Set<string>();
  for (const p of doc.packages) {
    if (slugs.has(p.slug)) throw new CatalogDocumentError(`package ${p.slug} is listed twice`);
    slugs.add(p.slug);
    currencyOf(`package ${p.slug}`, p.price.currency);
    if (new Set(p.actions).size !== p.actions.length) throw new CatalogDocumentError(`package ${p.slug} lists an action twice`);
    for (const key of p.actions) {
      if (!keys.has(key) && !knownActionKeys.has(key)) throw new CatalogDocumentError(`package ${p.slug} names unknown action ${key}`);
    }
  }
  return doc;
}
