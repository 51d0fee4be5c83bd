/**
 * Debian's xandikos (a CalDAV/CardDAV server we did not write) on a port the test chose,
 * with a fresh directory holding one user's default calendar at /user/calendars/calendar/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appendChildLog } from './log-capture';
import { freePort } from './processes';

export interface Xandikos {
  url: string;
  calendarUrl: string;
  stop(): Promise<void>;
}

export async function startXandikos(): Promise<Xandikos> {
  const port = await freePort();
  const root = mkdtempSync(path.join(tmpdir(), 'hi-xandikos-'));
  const child: ChildProcess = spawn('/usr/bin/xandikos', ['-d', root, '--defaults', '-l', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => appendChildLog(`[xandikos] ${d.toString()}`));
  child.stderr!.on('data', (d: Buffer) => appendChildLog(`[xandikos] ${d.toString()}`));
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`xandikos exited with ${child.exitCode} (is the Debian package xandikos installed?)`);
    try {
      const response = await fetch(`${url}user/calendars/calendar/`, { method: 'PROPFIND', headers: { depth: '0' } });
      await response.arrayBuffer();
      if (response.status === 207) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error('xandikos did not answer within 15 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    calendarUrl: `${url}user/calendars/calendar/`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
