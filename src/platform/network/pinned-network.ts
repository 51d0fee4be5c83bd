/**
 * Outbound connections to hosts an organization or an applicant named, pinned to the address
 * that was checked: the SSRF guard runs inside each connection's own DNS lookup, so what is
 * checked is exactly what is connected to. A name that answers a public address to the check
 * when settings are saved and 127.0.0.1 or 169.254.169.254 when the plugin connects (DNS
 * rebinding) is refused at connect time; an address literal (no lookup happens for one) is
 * checked before connecting. Three ways in, one policy:
 *   - `fetch`: the global fetch with an undici dispatcher whose connector checks every
 *     connection it opens (redirects included);
 *   - `lookup`: a `lookup` option for net/tls.connect (libraries that pass options through);
 *   - `connect`: a connected TCP socket, for libraries that accept one (nodemailer's
 *     `getSocket`, ssh2's `sock`); TLS then runs over it with the host name (SNI, certificate).
 * Hosts the operator listed (CONNECTOR_ALLOWED_INTERNAL_HOSTS, WEBHOOK_ALLOWED_INTERNAL_HOSTS)
 * skip the check, by the name as written. The operator's own destinations (deployment
 * defaults, host-supplied connectors) do not go through here: they connect directly.
 */
import net, { type LookupFunction, type Socket } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { DestinationRefusedError, guardedLookup, isPublicAddress, type DnsLookup } from './address-policy';

export type { DnsLookup } from './address-policy';

/** The stable code a refused destination carries, through every library's error wrapping. */
export const DESTINATION_REFUSED = 'ERR_DESTINATION_NOT_ALLOWED';

export interface OutboundNetwork {
  /** The global fetch, every connection of which (redirects included) goes to a checked address. */
  fetch: typeof fetch;
  /** A `lookup` for net/tls.connect options; pair it with `checkLiteral` (no lookup happens for an address). */
  lookup: LookupFunction;
  /** Throws the refusal when `host` is an address literal that is not public (and not allowed). */
  checkLiteral(host: string): void;
  /** A TCP connection to `host:port` through the guard, connected (or refused) within `timeoutMs`. */
  connect(host: string, port: number, timeoutMs: number): Promise<Socket>;
  /** Releases pooled connections, aborting what is still in flight (the plugin is stopping: never wait on a slow counterpart). */
  close(): Promise<void>;
}

export interface PinnedNetworkOptions {
  /** Host names (or addresses) the operator allowed although they are internal, as written in URLs and settings. */
  allowedInternalHosts: readonly string[];
  /** The resolver behind the guard; node's dns.lookup (getaddrinfo, /etc/hosts) by default. */
  dnsLookup?: DnsLookup;
}

const bare = (host: string) => host.toLowerCase().replace(/^\[|\]$/g, '');

function refusal(message: string): DestinationRefusedError {
  return Object.assign(new DestinationRefusedError(message), { code: DESTINATION_REFUSED });
}

/**
 * Whether an error is the guard refusing a destination at connect time, wherever a library
 * put it (fetch wraps it as `cause`, Stripe as `detail`, a happy-eyeballs connect in `errors`).
 */
export function isDestinationRefused(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 6) return false;
  const e = error as { code?: unknown; cause?: unknown; detail?: unknown; errors?: unknown };
  if (e instanceof DestinationRefusedError || e.code === DESTINATION_REFUSED) return true;
  return [e.cause, e.detail, ...(Array.isArray(e.errors) ? e.errors : [])].some((next) => isDestinationRefused(next, depth + 1));
}

/** A connected socket, or the connection's error (the guard's refusal among them) within `timeoutMs`. */
function connectTcp(options: net.TcpNetConnectOpts, timeoutMs: number): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const socket = net.connect(options);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(Object.assign(new Error(`Connecting to ${options.host}:${options.port} timed out`), { code: 'ETIMEDOUT' })), timeoutMs);
    socket.once('error', fail);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeListener('error', fail);
      resolve(socket);
    });
  });
}

class PinnedNetwork implements OutboundNetwork {
  readonly lookup: LookupFunction;
  readonly fetch: typeof fetch;
  private readonly dispatcher: Dispatcher;
  private readonly allowed: Set<string>;

  constructor(options: PinnedNetworkOptions) {
    this.allowed = new Set(options.allowedInternalHosts.map(bare));
    this.lookup = guardedLookup((hostname) => this.allowed.has(bare(hostname)), refusal, options.dnsLookup);
    const connector = buildConnector({ lookup: this.lookup });
    this.dispatcher = new Agent({
      connect: (connectOptions, callback) => {
        try {
          this.checkLiteral(connectOptions.hostname);
        } catch (error) {
          return callback(error as Error, null);
        }
        connector(connectOptions, callback);
      },
    });
    const dispatcher = this.dispatcher;
    this.fetch = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => fetch(input, { ...init, dispatcher } as unknown as RequestInit)) as typeof fetch;
  }

  checkLiteral(host: string): void {
    const name = bare(host);
    if (net.isIP(name) && !this.allowed.has(name) && !isPublicAddress(name)) throw refusal(`${name} is not a public address`);
  }

  async connect(host: string, port: number, timeoutMs: number): Promise<Socket> {
    this.checkLiteral(host);
    return connectTcp({ host: bare(host), port, lookup: this.lookup }, timeoutMs);
  }

  close(): Promise<void> {
    return this.dispatcher.destroy();
  }
}

/** Outbound connections checked at connect time; the operator's `allowedInternalHosts` skip the check. */
export function pinnedNetwork(options: PinnedNetworkOptions): OutboundNetwork {
  return new PinnedNetwork(options);
}
