/** The human-readable view of an export document: one section per store, one table per record. */
import { escapeHtml } from '../../../platform/http/html';
import type { ExportDocument } from '../domain/export-document';

const cell = (value: unknown) => escapeHtml(typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? ''));

export function exportHtml(doc: ExportDocument): string {
  const sections = doc.stores
    .map((store) => {
      const records =
        store.records.length === 0
          ? '<p>Nothing held.</p>'
          : store.records
              .map(
                (record) =>
                  `<table>${Object.entries(record)
                    .map(([key, value]) => `<tr><th scope="row">${escapeHtml(key)}</th><td><pre>${cell(value)}</pre></td></tr>`)
                    .join('')}</table>`,
              )
              .join('');
      return `<section><h2>${escapeHtml(store.name)}</h2><p>${escapeHtml(store.description)}</p>${records}</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Your data: ${escapeHtml(doc.profile_user_id)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;margin:.5rem 0 1rem;width:100%}th,td{border:1px solid #8c959f;padding:.25rem .5rem;text-align:left;vertical-align:top}pre{margin:0;white-space:pre-wrap}</style>
</head><body><main>
<h1>The data ${escapeHtml(doc.organization_id)} holds about ${escapeHtml(doc.profile_user_id)}</h1>
<p>Generated ${escapeHtml(doc.generated_at)}. Stores covered: ${doc.completeness.stores_covered.map(escapeHtml).join(', ')} (${doc.completeness.record_count} records).</p>
${sections}
</main></body></html>`;
}
