/**
 * A document's type is read from its first bytes (its magic number), never from the name or
 * the type the uploader declared: a script renamed to card.pdf is not a PDF.
 */
export type DocumentMediaType = 'application/pdf' | 'image/png' | 'image/jpeg';

const SIGNATURES: ReadonlyArray<{ type: DocumentMediaType; bytes: readonly number[] }> = [
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] }, // %PDF-
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
];

export function sniffDocumentType(content: Buffer): DocumentMediaType | undefined {
  return SIGNATURES.find(({ bytes }) => content.length > bytes.length && bytes.every((b, i) => content[i] === b))?.type;
}
