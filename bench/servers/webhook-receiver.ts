/**
 * The HTTP receiver both sides of the webhook benchmark POST to, in a process of its own so
 * that neither side's CPU time includes receiving: each request read to its end and
 * answered 200 with an empty body, connections kept alive. Over IPC: sends `{ready, port}`
 * once listening; on `{waitFor: n}` answers `{reached: n, connections, cpuMs}` once n
 * requests (counted since start) have been answered, with the connections opened so far
 * and this process's CPU time (user + system) since start.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let received = 0;
let connections = 0;
const waiting: number[] = [];

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const answer = (n: number) => process.send?.({ reached: n, connections, cpuMs: cpuMs() });

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200).end();
    received += 1;
    while (waiting.length > 0 && waiting[0]! <= received) answer(waiting.shift()!);
  });
});
server.keepAliveTimeout = 5000;
server.on('connection', () => (connections += 1));
server.listen(0, '127.0.0.1', () => process.send?.({ ready: true, port: (server.address() as AddressInfo).port }));
process.on('message', (message: { waitFor?: number }) => {
  if (typeof message.waitFor !== 'number') return;
  if (message.waitFor <= received) answer(message.waitFor);
  else {
    waiting.push(message.waitFor);
    waiting.sort((a, b) => a - b);
  }
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
