/**
 * How an SMS travels: GSM-7 (3GPP TS 23.038 default alphabet, 160 septets in one segment,
 * 153 per segment once a concatenation header is needed) or, when any character is outside
 * it, UCS-2 (70 UTF-16 units, 67 per segment). Extension-table characters (€, [, ], {, }, …)
 * take two septets (escape + char). A segment never splits an escape pair or a UTF-16
 * surrogate pair, as handsets and carriers (and Twilio's segment calculator) do.
 */
export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegmentation {
  encoding: SmsEncoding;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
  segments: number;
}

const GSM7_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXTENDED = '\f^{}\\[~]|€';
const BASIC = new Set(GSM7_BASIC);
const EXTENDED = new Set(GSM7_EXTENDED);

export const SEGMENT_LIMITS: Record<SmsEncoding, { single: number; multipart: number }> = {
  'GSM-7': { single: 160, multipart: 153 },
  'UCS-2': { single: 70, multipart: 67 },
};

/** The septets one character takes in GSM-7, or undefined when it has no GSM-7 form. */
export function gsm7Septets(char: string): 1 | 2 | undefined {
  if (BASIC.has(char)) return 1;
  if (EXTENDED.has(char)) return 2;
  return undefined;
}

export function isGsm7(text: string): boolean {
  for (const char of text) if (gsm7Septets(char) === undefined) return false;
  return true;
}

/** The size of each character in the encoding's units, in order. */
function unitSizes(text: string, encoding: SmsEncoding): number[] {
  // for…of walks code points: a surrogate pair is one character of two UTF-16 units.
  return Array.from(text, (char) => (encoding === 'GSM-7' ? gsm7Septets(char)! : char.length));
}

export function segmentSms(text: string): SmsSegmentation {
  const encoding: SmsEncoding = isGsm7(text) ? 'GSM-7' : 'UCS-2';
  const sizes = unitSizes(text, encoding);
  const units = sizes.reduce((a, b) => a + b, 0);
  const { single, multipart } = SEGMENT_LIMITS[encoding];
  if (units <= single) return { encoding, units, segments: 1 };
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > multipart) {
      segments += 1;
      used = 0;
    }
    used += size;
  }
  return { encoding, units, segments };
}
