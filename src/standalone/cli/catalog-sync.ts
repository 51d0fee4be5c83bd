/**
 * `hiring-integrations catalog sync [--file F]`: loads a catalog document (default: the
 * shipped version 1) into the database. Operators extend the catalog this way, without
 * code: new groups, actions and packages, new prices for existing actions.
 */
import { readFileSync } from 'node:fs';
import { CatalogDocumentError, parseCatalogDocument, type CatalogDocument } from '../../features/licensing/domain/catalog-document';
import { syncCatalog, type CatalogSyncResult } from '../../features/licensing/storage/catalog-sync';
import type { Database } from '../../platform/database/database';
import { UsageError } from './usage-error';
import shipped from '../../features/licensing/catalog.v1.json';

function readDocument(file: string | undefined): unknown {
  if (!file) return shipped;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--file: ${file} is not valid JSON`);
  }
}

export async function catalogSync(db: Database, file: string | undefined): Promise<CatalogSyncResult> {
  const known = new Set<string>((await db('hi_catalog_actions').select('key')).map((r: { key: string }) => r.key));
  let document: CatalogDocument;
  try {
    document = parseCatalogDocument(readDocument(file), known);
  } catch (error) {
    if (error instanceof CatalogDocumentError) throw new UsageError(`--file: ${error.message}`);
    throw error;
  }
  return syncCatalog(db, document, { source: file ?? 'catalog.v1.json', at: new Date() });
}
