/**
 * Debian's xandikos (a CalDAV/CardDAV server we did not write) on a port the test chose,
 * with a fresh directory holding one user's default calendar at /user/calendars/calendar/.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startChildServer } from './child-server';
import { freePort } from './processes';

export interface Xandikos {
  url: string;
  calendarUrl: string;
  stop(): Promise<void>;
}

export async function startXandikos(): Promise<Xandikos> {
  const port = await freePort();
  const root = mkdtempSync(path.join(tmpdir(), 'hi-xandikos-'));
  const url = `http://127.0.0.1:${port}/`;
  const calendarUrl = `${url}user/calendars/calendar/`;
  const server = await startChildServer({
    name: 'xandikos',
    command: '/usr/bin/xandikos',
    args: ['-d', root, '--defaults', '-l', '127.0.0.1', '-p', String(port)],
    // Ready once the default calendar answers, not only the port.
    ready: async () => {
      try {
        const response = await fetch(calendarUrl, { method: 'PROPFIND', headers: { depth: '0' } });
        await response.arrayBuffer();
        return response.status === 207;
      } catch {
        return false;
      }
    },
    readyWithinMs: 15_000,
    hint: 'is the Debian package xandikos installed?',
  });
  return { url, calendarUrl, stop: server.stop };
}
