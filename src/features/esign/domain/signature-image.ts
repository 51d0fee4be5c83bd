/**
 * A drawn signature as the page's canvas sends it: a PNG data URL. Bounded and decoded here,
 * before anything prints it: at most 64 KiB, at most 1200 × 600 pixels, 8-bit, not
 * interlaced, and its pixel data inflates to exactly the size its header promises (so a
 * truncated, forged or "zip bomb" image is a 400, not a failure in the PDF writer).
 */
import { inflateSync } from 'node:zlib';
import { invalid } from '../../../kernel/errors';

export const MAX_SIGNATURE_BYTES = 64 * 1024;
const MAX_WIDTH = 1200;
const MAX_HEIGHT = 600;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PREFIX = 'data:image/png;base64,';
/** Bytes per pixel of the 8-bit colour types: grey, RGB, grey + alpha, RGBA (no palettes). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

export function signatureImage(dataUrl: string): Buffer {
  const bad = (why: string) => invalid('signature_image_invalid', `The drawn signature is not usable: ${why}`, 'signature_image');
  if (!dataUrl.startsWith(PREFIX)) throw bad('expected a PNG data URL');
  const base64 = dataUrl.slice(PREFIX.length);
  if (base64.length > Math.ceil((MAX_SIGNATURE_BYTES * 4) / 3) + 4 || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) throw bad('too large or not base64');
  const png = Buffer.from(base64, 'base64');
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_MAGIC) || png.toString('latin1', 12, 16) !== 'IHDR') throw bad('not a PNG image');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (width < 1 || height < 1 || width > MAX_WIDTH || height > MAX_HEIGHT) throw bad(`at most ${MAX_WIDTH} × ${MAX_HEIGHT} pixels`);
  const channels = CHANNELS[png[25]!];
  if (png[24] !== 8 || !channels || png[28] !== 0) throw bad('an 8-bit, non-interlaced grey, RGB or RGBA image');
  const data: Buffer[] = [];
  let ended = false;
  for (let at = 8; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > png.length) throw bad('truncated');
    if (type === 'IDAT') data.push(png.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') {
      ended = true;
      break;
    }
    at += 12 + length;
  }
  const expected = height * (1 + width * channels);
  let pixels: Buffer;
  try {
    pixels = inflateSync(Buffer.concat(data), { maxOutputLength: expected + 1 });
  } catch {
    throw bad('its pixel data is damaged');
  }
  if (!ended || pixels.length !== expected) throw bad('its pixel data does not match its size');
  return png;
}
