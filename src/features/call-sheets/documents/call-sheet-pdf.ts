/**
 * One person's call sheet as a PDF (pdfkit), set in the Noto fonts the invoices use
 * (assets/fonts/, handed in by register.ts), in the recipient's language.
 */
import PDFDocument from 'pdfkit';
import type { CallSheet, CallSheetDocuments } from '../domain/call-sheet';
import { PDF_LABELS } from '../domain/pdf-labels';
import { formatMoment, messageLanguage } from '../../messages/domain/message-language';

export interface DocumentFonts {
  files: Record<string, Buffer>;
  runs(text: string, font: 'Body' | 'Label'): { font: string; text: string }[];
}

export class PdfCallSheets implements CallSheetDocuments {
  constructor(private readonly fonts: DocumentFonts) {}

  render(sheet: CallSheet): Promise<Buffer> {
    const language = messageLanguage(sheet.language);
    const labels = PDF_LABELS[language.locale];
    const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `${labels.title}: ${sheet.production}`, Author: 'hiring-integrations' } });
    const chunks: Buffer[] = [];
    const done = new Promise<Buffer>((resolve, reject) => {
      doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.on('error', reject);
    });
    for (const [name, file] of Object.entries(this.fonts.files)) doc.registerFont(name, file);
    const write = (text: string, font: 'Body' | 'Label', size: number) => {
      const runs = this.fonts.runs(text, font);
      doc.fontSize(size);
      runs.forEach((run, i) => doc.font(run.font).text(run.text, { continued: i < runs.length - 1 }));
    };
    write(labels.title, 'Label', 22);
    write(sheet.production, 'Body', 16);
    doc.moveDown();
    const rows: [string, string][] = [
      [labels.name, sheet.name],
      ...(sheet.role ? ([[labels.role, sheet.role]] as [string, string][]) : []),
      [labels.date, formatMoment(sheet.callAt, language, sheet.timezone, 'date')],
      [labels.call_time, formatMoment(sheet.callAt, language, sheet.timezone, 'time')],
      [labels.location, sheet.location],
    ];
    for (const [label, value] of rows) {
      write(label, 'Label', 11);
      write(value, 'Body', 13);
      doc.moveDown(0.5);
    }
    doc.end();
    return done;
  }
}
