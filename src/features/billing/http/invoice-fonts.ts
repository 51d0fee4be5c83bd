/**
 * The fonts invoice PDFs are set in, shipped in the package (assets/fonts/, SIL Open Font
 * License): PDF's built-in Helvetica only knows Latin-1, with no U+2212 MINUS SIGN for
 * credits and no Greek, Cyrillic or CJK for customers' names. Noto Sans sets Latin, Greek
 * and Cyrillic; Noto Sans CJK JP whatever Noto Sans lacks (signs, kana, Hangul, the common
 * ideographs: scripts/subset-invoice-fonts.py lists them). The bold face is for the
 * invoice's own labels. pdfkit embeds only the glyphs a document uses.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { create, type Font } from 'fontkit';

export type InvoiceFontName = 'Body' | 'Label' | 'Fallback';

const FILES: Record<InvoiceFontName, string> = {
  Body: 'NotoSans-Regular-invoice.ttf',
  Label: 'NotoSans-Bold-invoice.ttf',
  Fallback: 'NotoSansCJKjp-Regular-invoice.otf',
};

/** assets/fonts/ of the package, found from this file's place in src/ or dist/src/. */
function fontPath(file: string): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'assets', 'fonts', file);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`The invoice font ${file} is missing from the package (assets/fonts/)`);
  }
}

export interface InvoiceFonts {
  files: Record<InvoiceFontName, Buffer>;
  /** `text` cut into runs, each in `font` where it has the glyphs and in the fallback font where it has not. */
  runs(text: string, font: 'Body' | 'Label'): { font: InvoiceFontName; text: string }[];
}

function load(): InvoiceFonts {
  const files = Object.fromEntries(Object.entries(FILES).map(([name, file]) => [name, readFileSync(fontPath(file))])) as Record<InvoiceFontName, Buffer>;
  const faces = { Body: create(files.Body) as Font, Label: create(files.Label) as Font };
  return {
    files,
    runs(text, font) {
      const out: { font: InvoiceFontName; text: string }[] = [];
      for (const char of text) {
        const chosen: InvoiceFontName = faces[font].hasGlyphForCodePoint(char.codePointAt(0)!) ? font : 'Fallback';
        const last = out[out.length - 1];
        if (last?.font === chosen) last.text += char;
        else out.push({ font: chosen, text: char });
      }
      return out;
    },
  };
}

let loaded: InvoiceFonts | undefined;

/** The invoice fonts, read once per process. */
export function invoiceFonts(): InvoiceFonts {
  loaded ??= load();
  return loaded;
}
