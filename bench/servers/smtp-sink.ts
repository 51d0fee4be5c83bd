/**
 * The SMTP server both sides of the reminder benchmark send to, in a process of its own so
 * that neither side's CPU time includes receiving: `smtp-server` on 127.0.0.1 (plain SMTP,
 * no AUTH), each message read to its end and answered 250. Over IPC: sends
 * `{ready, port}` once listening; on `{waitFor: n}` answers `{reached: n, connections, bytes}`
 * once n messages (counted since start) have been accepted, with the connections opened and
 * message bytes received so far.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

let received = 0;
let connections = 0;
let bytes = 0;
const waiting: number[] = [];

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onConnect(_session, callback) {
    connections += 1;
    callback();
  },
  onData(stream, _session, callback) {
    stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
    stream.on('end', () => {
      received += 1;
      callback();
      while (waiting.length > 0 && waiting[0]! <= received) process.send?.({ reached: waiting.shift(), connections, bytes });
    });
  },
});

server.listen(0, '127.0.0.1', () => process.send?.({ ready: true, port: (server.server.address() as AddressInfo).port }));
process.on('message', (message: { waitFor?: number }) => {
  if (typeof message.waitFor !== 'number') return;
  if (message.waitFor <= received) process.send?.({ reached: message.waitFor, connections, bytes });
  else {
    waiting.push(message.waitFor);
    waiting.sort((a, b) => a - b);
  }
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
