/**
 * Draining an HTTP server without resetting anyone. `http.Server.close()` (Node 19+) also
 * closes idle keep-alive sockets at once, and a client that is already sending its next
 * request on one sees ECONNRESET. Instead: stop listening; answer every request that still
 * arrives on an open connection with `Connection: close` (the client then opens its next
 * connection elsewhere); and close a socket only between requests, once it has been quiet
 * for a while (longer than clients keep an idle connection before reusing it), so a client
 * is never cut off mid-request. Two races stay, as with every HTTP/1.1 server: a client that
 * sends on a connection idle for exactly that long (clients' idle timeouts should be shorter
 * than the server's), and a connection the kernel completed but the server had not accepted
 * yet when it stopped listening, which the kernel resets (behind a load balancer, take the
 * instance out of rotation before SIGTERM, as Kubernetes' preStop delay does).
 */
import type { Server } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

export interface Draining {
  /** Stops accepting connections; resolves when every connection has closed. */
  drain(): Promise<void>;
}

/** How long a connection must have been idle before draining closes it. */
export const DRAIN_IDLE_MS = 1000;

export function drainable(server: Server, idleMs = DRAIN_IDLE_MS): Draining {
  const connections = new Map<Socket, { active: number; idleSince: number }>();
  let draining = false;
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { active: 0, idleSince: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });
  // First listener: the header must be set before the application writes its response.
  server.prependListener('request', (req, res) => {
    const state = connections.get(req.socket);
    if (state) state.active++;
    if (draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      if (!state) return;
      state.active--;
      state.idleSince = Date.now();
    });
  });
  /** Ends the connections idle long enough. Decided after a poll phase (setImmediate), so a
   *  request whose bytes arrived while the event loop was busy is seen first, not cut off. */
  const endIdleConnections = () =>
    setImmediate(() => {
      const now = Date.now();
      for (const [socket, state] of connections) if (state.active === 0 && now - state.idleSince >= idleMs) socket.end();
    });
  return {
    drain() {
      draining = true;
      return new Promise<void>((resolve) => {
        const sweep = setInterval(endIdleConnections, Math.min(100, idleMs));
        // net.Server's close: stop listening, and call back once the last connection is gone.
        NetServer.prototype.close.call(server, () => {
          clearInterval(sweep);
          resolve();
        });
      });
    },
  };
}
