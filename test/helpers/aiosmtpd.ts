/**
 * Debian's python3-aiosmtpd (an SMTP server we did not write) on a port the test chose,
 * storing what it accepts in a Maildir; the messages are read back with mailparser.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { startChildServer } from './child-server';

export interface Aiosmtpd {
  port: number;
  messages(): Promise<ParsedMail[]>;
  stop(): Promise<void>;
}

const PYTHON = '/usr/bin/python3';

export async function startAiosmtpd(port: number, maildir = mkdtempSync(path.join(tmpdir(), 'hi-aiosmtpd-'))): Promise<Aiosmtpd> {
  const server = await startChildServer({
    name: 'aiosmtpd',
    command: PYTHON,
    args: ['-m', 'aiosmtpd', '-n', '-l', `127.0.0.1:${port}`, '-c', 'aiosmtpd.handlers.Mailbox', path.join(maildir, 'mail')],
    port,
    readyWithinMs: 10_000,
    hint: 'is python3-aiosmtpd installed?',
  });
  return {
    port,
    async messages() {
      const folder = path.join(maildir, 'mail', 'new');
      const files = readdirSync(folder).sort();
      return Promise.all(files.map((f) => simpleParser(readFileSync(path.join(folder, f)))));
    },
    stop: server.stop,
  };
}
