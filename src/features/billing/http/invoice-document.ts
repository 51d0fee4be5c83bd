/**
 * The printable invoice: an HTML page (printable from any browser) and a PDF rendered
 * with pdfkit in the embedded Noto Sans CJK subsets (invoice-fonts.ts), so names in any
 * common script and the minus sign print as they do in HTML. Both show the same lines,
 * in the same order, with amounts in the invoice's currency.
 */
import PDFDocument from 'pdfkit';
import type { Invoice } from '../domain/invoice';
import { escapeHtml } from '../../../platform/http/html';
import { invoiceFonts } from './invoice-fonts';

export const formatAmount = (cents: number, currency: string): string => `${cents < 0 ? '−' : ''}${currency} ${(Math.abs(cents) / 100).toFixed(2)}`;

const day = (at: Date | null) => (at ? at.toISOString().slice(0, 10) : '—');

function rows(invoice: Invoice): [string, string, string][] {
  return invoice.lines.map((l) => [
    l.description,
    `${day(l.periodStart)} – ${day(new Date(l.periodEnd.getTime() - 1000))}`,
    formatAmount(l.amount, invoice.currency),
  ]);
}

function totals(invoice: Invoice): [string, string][] {
  const out: [string, string][] = [['Subtotal', formatAmount(invoice.subtotal, invoice.currency)]];
  if (invoice.startingCredit > 0)
    out.push(['Credit balance applied', formatAmount(-Math.min(invoice.startingCredit, Math.max(invoice.subtotal, 0)), invoice.currency)]);
  out.push(['Amount due', formatAmount(invoice.total, invoice.currency)]);
  if (invoice.endingCredit > 0) out.push(['Credit carried to the next invoice', formatAmount(invoice.endingCredit, invoice.currency)]);
  return out;
}

const title = (invoice: Invoice) => `Invoice ${invoice.number ?? '(draft)'}`;

export function invoiceHtml(invoice: Invoice, organizationName: string): string {
  const lineRows = rows(invoice)
    .map(([d, p, a]) => `<tr><td>${escapeHtml(d)}</td><td>${escapeHtml(p)}</td><td class="n">${escapeHtml(a)}</td></tr>`)
    .join('');
  const totalRows = totals(invoice)
    .map(([label, amount]) => `<tr><th colspan="2">${escapeHtml(label)}</th><td class="n">${escapeHtml(amount)}</td></tr>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title(invoice))}</title>
<style>body{font:14px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1f2328}table{width:100%;border-collapse:collapse}td,th{padding:.35rem .5rem;border-bottom:1px solid #d0d7de;text-align:left}.n{text-align:right;white-space:nowrap}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{color:#59636e}@media print{body{margin:0}}</style>
</head><body>
<h1>${escapeHtml(title(invoice))}</h1>
<dl><dt>Billed to</dt><dd>${escapeHtml(organizationName)} (${escapeHtml(invoice.organizationId)})</dd>
<dt>Invoice id</dt><dd>${escapeHtml(invoice.id)}</dd>
<dt>Status</dt><dd>${escapeHtml(invoice.status)}</dd>
<dt>Period</dt><dd>${day(invoice.periodStart)} – ${day(new Date(invoice.periodEnd.getTime() - 1000))}</dd>
<dt>Issued</dt><dd>${day(invoice.finalizedAt ?? invoice.createdAt)}</dd>
${invoice.paidAt ? `<dt>Paid</dt><dd>${day(invoice.paidAt)}</dd>` : ''}</dl>
<table><thead><tr><th>Description</th><th>Service period</th><th class="n">Amount</th></tr></thead>
<tbody>${lineRows}</tbody><tfoot>${totalRows}</tfoot></table>
</body></html>`;
}

export function invoicePdf(invoice: Invoice, organizationName: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: title(invoice), Author: 'hiring-integrations' } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    const fonts = invoiceFonts();
    for (const [name, file] of Object.entries(fonts.files)) doc.registerFont(name, file);
    /** One piece of text, font run by font run (pdfkit continues a paragraph across font changes). */
    const write = (text: string, at: { x?: number; y?: number; width?: number }, font: 'Body' | 'Label' = 'Body') => {
      const runs = fonts.runs(text, font);
      if (runs.length === 0) runs.push({ font, text: '' });
      runs.forEach((run, i) => {
        doc.font(run.font);
        const options = { width: at.width, continued: i < runs.length - 1 };
        if (i === 0 && at.x !== undefined) doc.text(run.text, at.x, at.y, options);
        else doc.text(run.text, options);
      });
    };
    /** One line ending at the column's right edge: pdfkit cannot right-align a paragraph that changes font, so runs are placed by their measured widths. */
    const writeRight = (text: string, x: number, y: number, width: number, font: 'Body' | 'Label') => {
      const runs = fonts.runs(text, font).map((run) => ({ ...run, width: doc.font(run.font).widthOfString(run.text) }));
      let left = x + width - runs.reduce((sum, run) => sum + run.width, 0);
      for (const run of runs) {
        doc.font(run.font).text(run.text, left, y, { lineBreak: false });
        left += run.width;
      }
      doc.moveDown();
    };
    doc.fontSize(18);
    write(title(invoice), {});
    doc.moveDown(0.5).fontSize(10);
    write(`Billed to: ${organizationName} (${invoice.organizationId})`, {});
    write(`Invoice id: ${invoice.id}   Status: ${invoice.status}`, {});
    write(
      `Period: ${day(invoice.periodStart)} – ${day(new Date(invoice.periodEnd.getTime() - 1000))}   Issued: ${day(invoice.finalizedAt ?? invoice.createdAt)}`,
      {},
    );
    doc.moveDown();
    const line = (left: string, middle: string, right: string, bold = false) => {
      const y = doc.y;
      const font = bold ? 'Label' : 'Body';
      write(left, { x: 50, y, width: 280 }, font);
      const afterLeft = doc.y;
      write(middle, { x: 335, y, width: 130 }, font);
      writeRight(right, 465, y, 80, font);
      doc.y = Math.max(afterLeft, doc.y) + 4;
    };
    line('Description', 'Service period', 'Amount', true);
    for (const [d, p, a] of rows(invoice)) line(d, p, a);
    doc.moveDown(0.5);
    for (const [label, amount] of totals(invoice)) line(label, '', amount, label === 'Amount due');
    doc.end();
  });
}
