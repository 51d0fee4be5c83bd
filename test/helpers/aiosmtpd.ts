/**
 * Debian's python3-aiosmtpd (an SMTP server we did not write) on a port the test chose,
 * storing what it accepts in a Maildir; the messages are read back with mailparser.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { appendChildLog } from './log-capture';

export interface Aiosmtpd {
  port: number;
  messages(): Promise<ParsedMail[]>;
  stop(): Promise<void>;
}

const PYTHON = '/usr/bin/python3';

export async function startAiosmtpd(port: number, maildir = mkdtempSync(path.join(tmpdir(), 'hi-aiosmtpd-'))): Promise<Aiosmtpd> {
  const child: ChildProcess = spawn(
    PYTHON,
    ['-m', 'aiosmtpd', '-n', '-l', `127.0.0.1:${port}`, '-c', 'aiosmtpd.handlers.Mailbox', path.join(maildir, 'mail')],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (d: Buffer) => appendChildLog(`[aiosmtpd] ${d.toString()}`));
  child.stderr!.on('data', (d: Buffer) => appendChildLog(`[aiosmtpd] ${d.toString()}`));
  const deadline = Date.now() + 10_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null) throw new Error(`aiosmtpd exited with ${child.exitCode} (is python3-aiosmtpd installed?)`);
    if (Date.now() > deadline) throw new Error('aiosmtpd did not listen within 10 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    async messages() {
      const folder = path.join(maildir, 'mail', 'new');
      const files = readdirSync(folder).sort();
      return Promise.all(files.map((f) => simpleParser(readFileSync(path.join(folder, f)))));
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
