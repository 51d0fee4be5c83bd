/**
 * Hands a composed message to the SMTP connection in one piece. nodemailer streams a message
 * as its MIME tree produces it (headers, each boundary, each part), and its SMTP connection
 * writes every piece to the socket as it comes: some ten write system calls per reminder, each
 * waking the server. Collected first (up to LIMIT bytes; a bigger message, e.g. one with large
 * attachments, streams on from there), the same bytes leave in one write. Installed as a
 * nodemailer `stream` plugin, so DKIM (applied after it) and everything else are unchanged.
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { Transporter } from 'nodemailer';

const LIMIT = 256 * 1024;

class Coalesce extends Transform {
  private pending: Buffer[] | undefined = [];
  private size = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.pending) return callback(null, chunk);
    this.pending.push(chunk);
    this.size += chunk.length;
    if (this.size <= LIMIT) return callback();
    const collected = Buffer.concat(this.pending);
    this.pending = undefined;
    callback(null, collected);
  }

  override _flush(callback: TransformCallback): void {
    if (this.pending?.length) this.push(Buffer.concat(this.pending));
    this.pending = undefined;
    callback();
  }
}

/** The message stream, collected into one chunk (exported for its test). */
export function oneWrite(input: Readable): Readable {
  const output = new Coalesce();
  input.once('error', (error) => output.destroy(error));
  return input.pipe(output);
}

export function sendInOneWrite(transport: Transporter): Transporter {
  return transport.use('stream', (mail, done) => {
    mail.message.processFunc(oneWrite);
    done();
  });
}
