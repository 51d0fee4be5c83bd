/**
 * The standalone host's icon: a 32×32 ICO (one PNG entry), drawn here once at start (the
 * widget's person glyph, white on the demo's blue), so browsers asking for /favicon.ico
 * get an image rather than a JSON 404, and the repository holds no binary.
 */
import { crc32, deflateSync } from 'node:zlib';

const SIZE = 32;
const BLUE = [29, 78, 216];

/** Inside the person glyph (head and shoulders), on a 32-pixel grid. */
function person(x: number, y: number): boolean {
  const head = (x - 15.5) ** 2 + (y - 11) ** 2 <= 5.5 ** 2;
  const shoulders = y >= 19 && y <= 27 && (x - 15.5) ** 2 / 10.5 ** 2 + (y - 27) ** 2 / 8 ** 2 <= 1;
  return head || shoulders;
}

/** Inside a square with rounded corners (radius 7). */
function tile(x: number, y: number): boolean {
  const r = 7;
  const cx = Math.min(Math.max(x + 0.5, r), SIZE - r);
  const cy = Math.min(Math.max(y + 0.5, r), SIZE - r);
  return (x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(): Buffer {
  const rows: number[] = [];
  for (let y = 0; y < SIZE; y++) {
    rows.push(0); // no filter
    for (let x = 0; x < SIZE; x++) {
      if (!tile(x, y)) rows.push(0, 0, 0, 0);
      else if (person(x, y)) rows.push(255, 255, 255, 255);
      else rows.push(...BLUE, 255);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, deflate, no filter set, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An ICO file holding one 32×32 PNG image. */
export function favicon(): Buffer {
  const image = png();
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(SIZE, 6);
  header.writeUInt8(SIZE, 7);
  header.writeUInt8(0, 8); // no palette
  header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10); // planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, image]);
}
