/**
 * The envelope's PDF (pdfkit, in the fonts invoices are set in, so names in any common script
 * print): the document as sent, and the sealed one: the same pages, the signature below the
 * text, an audit-trail page (who, when, IP, user agent, the original's SHA-256, every event)
 * and a PDF digital signature over the whole file (pdf-signature.ts).
 */
import PDFDocument from 'pdfkit';
import { invoiceFonts } from '../../billing/http/invoice-fonts';
import type { EnvelopeSignature } from '../domain/envelope';
import type { AuditTrail, DocumentContent, EnvelopeDocuments, SigningCredential, TimestampAuthority } from '../domain/ports';
import { documentBlocks } from '../domain/template-language';
import { addSignaturePlaceholder, signPdf } from './pdf-signature';

type Doc = InstanceType<typeof PDFDocument>;

const EVENT_NAMES: Record<string, string> = {
  created: 'Document created',
  sent: 'Link sent to the signer',
  viewed: 'Opened by the signer',
  reminded: 'Reminder sent to the signer',
  consented: 'Consented to sign electronically',
  signed: 'Signed',
  declined: 'Declined',
  voided: 'Voided by the sender',
  expired: 'Expired',
  sealed: 'Sealed',
};

function newDocument(title: string, author: string): { doc: Doc; done: Promise<Buffer> } {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: title, Author: author, Creator: 'hiring-integrations e-signature' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const fonts = invoiceFonts();
  for (const [name, file] of Object.entries(fonts.files)) doc.registerFont(name, file);
  return { doc, done };
}

/** Text in `font`, falling back run by run to the CJK face where the font lacks a glyph. */
function write(doc: Doc, text: string, font: 'Body' | 'Label', size: number, options: { x?: number; y?: number; width?: number; gap?: number } = {}): void {
  const runs = invoiceFonts().runs(text, font);
  if (runs.length === 0) runs.push({ font, text: '' });
  doc.fontSize(size);
  runs.forEach((run, i) => {
    doc.font(run.font);
    const opts = { width: options.width ?? doc.page.width - 112, continued: i < runs.length - 1, paragraphGap: options.gap ?? 0 };
    if (i === 0 && options.x !== undefined) doc.text(run.text, options.x, options.y, opts);
    else doc.text(run.text, opts);
  });
}

function body(doc: Doc, content: DocumentContent): void {
  write(doc, `${content.organizationName} · ${content.envelopeId}`, 'Body', 8, { gap: 8 });
  write(doc, content.title, 'Label', 18, { gap: 12 });
  for (const block of documentBlocks(content.text)) {
    if (block.kind === 'heading') write(doc, block.text, 'Label', 13, { gap: 8 });
    else write(doc, block.text, 'Body', 11, { gap: 10 });
  }
}

function signatureBlock(doc: Doc, signature: EnvelopeSignature, signedAt: Date): void {
  if (doc.y > doc.page.height - 220) doc.addPage();
  doc.moveDown(1.5);
  write(doc, 'Signature', 'Label', 11, { gap: 6 });
  const top = doc.y;
  if (signature.image) {
    doc.image(signature.image, 56, top, { fit: [220, 80] });
    doc.y = top + 84;
  } else {
    write(doc, signature.typedName, 'Body', 20, { gap: 2 });
  }
  doc.moveTo(56, doc.y).lineTo(300, doc.y).lineWidth(0.5).stroke();
  doc.moveDown(0.3);
  write(doc, `${signature.typedName}, signed electronically on ${signedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`, 'Body', 9);
}

function auditPage(doc: Doc, trail: AuditTrail): void {
  doc.addPage();
  write(doc, 'Audit trail', 'Label', 16, { gap: 10 });
  const facts: [string, string][] = [
    ['Envelope', trail.envelopeId],
    ['Sender', trail.organizationName],
    ['Signer', `${trail.signer.name} <${trail.signer.email}>`],
    ['Signed at', `${trail.signedAt.toISOString()} (UTC)`],
    ['Original document SHA-256', trail.originalSha256],
  ];
  for (const [label, value] of facts) {
    write(doc, label, 'Label', 9);
    write(doc, value, 'Body', 10, { gap: 6 });
  }
  doc.moveDown(0.5);
  write(doc, 'Events', 'Label', 12, { gap: 6 });
  for (const event of trail.events) {
    write(doc, `${event.at}  ${EVENT_NAMES[event.type] ?? event.type}`, 'Label', 9);
    const who = [event.ip ? `IP ${event.ip}` : '', event.userAgent ? `User agent: ${event.userAgent}` : '', event.detail ?? ''].filter(Boolean).join(' · ');
    write(doc, who || '—', 'Body', 9, { gap: 6 });
  }
  doc.moveDown(0.5);
  write(
    doc,
    'The signer consented to sign electronically (a simple electronic signature under the ESIGN Act and eIDAS) through a link sent to their email. ' +
      'This file carries a PDF digital signature made with the sender’s certificate: any change to the file after signing shows the signature as invalid.',
    'Body',
    9,
  );
}

export class PdfEnvelopeDocuments implements EnvelopeDocuments {
  constructor(private readonly timestamps: TimestampAuthority) {}

  async render(content: DocumentContent): Promise<Buffer> {
    const { doc, done } = newDocument(content.title, content.organizationName);
    body(doc, content);
    doc.end();
    return done;
  }

  async seal(
    content: DocumentContent,
    signature: EnvelopeSignature,
    trail: AuditTrail,
    credential: SigningCredential,
    timestampAuthorityUrl?: string | null,
  ): Promise<Buffer> {
    const { doc, done } = newDocument(content.title, content.organizationName);
    body(doc, content);
    signatureBlock(doc, signature, trail.signedAt);
    auditPage(doc, trail);
    addSignaturePlaceholder(doc, {
      reason: `Signed by ${trail.signer.name} through ${trail.organizationName}`,
      name: trail.organizationName,
      signingTime: trail.signedAt,
    });
    doc.end();
    const timestamp = timestampAuthorityUrl ? async (digest: Buffer) => (await this.timestamps.timestamp(timestampAuthorityUrl, digest)).token : undefined;
    return signPdf(await done, credential, timestamp);
  }
}
