/**
 * A real SMTP server for the connector tests: the `smtp-server` package (Nodemailer's own
 * server implementation, not ours) on a free port, with AUTH PLAIN/LOGIN, optional
 * STARTTLS with a throwaway certificate made by openssl, and every message parsed back
 * with `mailparser`. It answers DATA with a queue id, as Postfix does.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  queueId: string;
  parsed: ParsedMail;
  /** The message as it arrived (DKIM verification reads these bytes). */
  raw: Buffer;
}

export interface TestSmtpServer {
  port: number;
  /** PEM of the server's self-signed certificate (trust it with the connector's tls_ca). */
  certificate: string;
  received: ReceivedMail[];
  /** The next `count` DATA commands are answered with this reply (e.g. 451 or 550). */
  failNext(count: number, responseCode: number, message?: string): void;
  close(): Promise<void>;
}

export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'hi-smtp-cert-'));
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
}

export async function startSmtpServer(options: { username?: string; password?: string; port?: number } = {}): Promise<TestSmtpServer> {
  const { key, cert } = selfSignedCertificate();
  const received: ReceivedMail[] = [];
  let failures: { count: number; responseCode: number; message: string } | undefined;
  const server = new SMTPServer({
    key,
    cert,
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: !options.username,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.username && auth.password === options.password) return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (failures && failures.count > 0) {
          failures.count -= 1;
          return callback(Object.assign(new Error(failures.message), { responseCode: failures.responseCode }));
        }
        const queueId = randomBytes(6).toString('hex').toUpperCase();
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              envelope: { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address) },
              queueId,
              parsed,
              raw,
            });
            callback(null, `Ok: queued as ${queueId}`);
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.server.once('listening', () => resolve());
    server.server.once('error', reject);
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    certificate: cert,
    received,
    failNext(count, responseCode, message = 'Try again later') {
      failures = { count, responseCode, message };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
