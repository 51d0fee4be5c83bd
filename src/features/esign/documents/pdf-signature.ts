/**
 * The PDF digital signature, a PAdES baseline signature (PAdES-B-B, ETSI EN 319 142-1): a
 * signature field whose value is a CAdES detached CMS over the whole file but its own /Contents
 * (SubFilter ETSI.CAdES.detached, SHA-256, cades-signer.ts), made with the organization's
 * PKCS#12; the signing time is the dictionary's /M. @signpdf places the CMS in the byte range.
 * Any byte changed afterwards breaks it, which pdfsig, Acrobat and every PDF reader show.
 *
 * The placeholder is written with the same pdfkit document (as @signpdf/placeholder-pdfkit
 * does, MIT; that package pins pdfkit 0.11 while this project is on 0.20, and the objects
 * it adds are these few).
 */
import { SignPdf } from '@signpdf/signpdf';
import { DEFAULT_BYTE_RANGE_PLACEHOLDER, SIG_FLAGS, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import type PDFDocument from 'pdfkit';
import type { SigningCredential } from '../domain/ports';
import { CadesSigner } from './cades-signer';

/** Room for the CMS (hex digits): an RSA-4096 chain of a few certificates and a TSA's token with its own chain fit. */
const SIGNATURE_LENGTH = 32_768;

interface PdfRef {
  end(): void;
}
/** The parts of pdfkit's document the placeholder uses (not all in @types/pdfkit). */
interface PdfkitInternals {
  ref(data: Record<string, unknown>): PdfRef;
  initForm(): void;
  _acroform?: unknown;
  _root: { data: { AcroForm: { data: { Fields: PdfRef[]; DR?: unknown } & Record<string, unknown> } } };
  page: { dictionary: unknown; annotations: PdfRef[] };
}

export function addSignaturePlaceholder(document: InstanceType<typeof PDFDocument>, options: { reason: string; name: string; signingTime: Date }): void {
  const pdf = document as unknown as PdfkitInternals;
  const signature = pdf.ref({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: SUBFILTER_ETSI_CADES_DETACHED,
    ByteRange: [0, DEFAULT_BYTE_RANGE_PLACEHOLDER, DEFAULT_BYTE_RANGE_PLACEHOLDER, DEFAULT_BYTE_RANGE_PLACEHOLDER],
    Contents: Buffer.from(String.fromCharCode(0).repeat(SIGNATURE_LENGTH)),
    // String objects (not names): pdfkit writes a JS String wrapper as a PDF string.
    Reason: new String(options.reason),
    // The claimed signing time: PAdES keeps it here, never as a CMS signing-time attribute.
    M: options.signingTime,
    Name: new String(options.name),
    ContactInfo: new String(''),
    Location: new String(''),
    Prop_Build: { Filter: { Name: 'Adobe.PPKLite' } },
  });
  if (!pdf._acroform) pdf.initForm();
  const form = pdf._root.data.AcroForm;
  form.data = { Type: 'AcroForm', SigFlags: SIG_FLAGS.SIGNATURES_EXIST | SIG_FLAGS.APPEND_ONLY, Fields: form.data.Fields, DR: form.data.DR };
  const widget = pdf.ref({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    Rect: [0, 0, 0, 0],
    V: signature,
    T: new String(`Signature${form.data.Fields.length + 1}`),
    F: 4,
    P: pdf.page.dictionary,
  });
  pdf.page.annotations.push(widget);
  form.data.Fields.push(widget);
  signature.end();
  widget.end();
}

/** PAdES-B-B; B-T when `timestamp` gives an RFC 3161 token over the signature value's SHA-256. */
export async function signPdf(pdf: Buffer, credential: SigningCredential, timestamp?: (signatureSha256: Buffer) => Promise<Buffer>): Promise<Buffer> {
  return new SignPdf().sign(pdf, new CadesSigner(credential.p12, credential.passphrase, timestamp));
}
