/**
 * The SSRF guard on organizations' connections: a connection's settings name hosts the
 * plugin will connect to (an SMTP relay, a CalDAV or SCIM URL, a vendor's API base URL),
 * typed by an organization, not by the operator. Each must resolve to public addresses
 * only, unless the operator allowed the host (CONNECTOR_ALLOWED_INTERNAL_HOSTS): otherwise
 * one tenant could make the plugin talk to the deployment's own network (Redis, PostgreSQL,
 * the cloud metadata address) and read the answers back from a connection test.
 * Checked when settings are saved, before a test, and when a connection is opened for a
 * step; and then pinned: the connector reaches the host through the guard's `network`, whose
 * every connection is checked again inside its own DNS lookup (a name that answers a public
 * address to the check and 127.0.0.1 to the connect, DNS rebinding, is refused there).
 * Deployment defaults and host-supplied connectors are the operator's and are not checked.
 */
import type { LookupFunction, Socket } from 'node:net';
import { DomainError, invalid } from '../../../kernel/errors';

/** A host a connection's settings point at, and the settings field it came from (the error's `param`). */
export interface Destination {
  param: string;
  host: string;
}

/** 'ok', or why not: the host resolves to nothing, or to an address that is not public. */
export type DestinationVerdict = 'ok' | 'unresolvable' | 'not_public';

/**
 * How a connector reaches the hosts its settings name: every connection goes to an address
 * the guard checked at connect time (src/platform/network/pinned-network.ts). A refusal is
 * an error whose chain carries `code: 'ERR_DESTINATION_NOT_ALLOWED'` (`isDestinationRefused` there).
 */
export interface ConnectorNetwork {
  /** The global fetch through the guard (redirects included). */
  fetch: typeof fetch;
  /** A `lookup` for net/tls.connect options; pair it with `checkLiteral`. */
  lookup: LookupFunction;
  /** Throws the refusal for an address literal that is not public (no lookup happens for one). */
  checkLiteral(host: string): void;
  /** A TCP connection through the guard, connected within `timeoutMs`. */
  connect(host: string, port: number, timeoutMs: number): Promise<Socket>;
}

export interface DestinationGuard {
  check(host: string): Promise<DestinationVerdict>;
  /** Where organizations' connections connect through (absent: nothing pins them, unit tests). */
  network?: ConnectorNetwork;
}

/** The deepest error a library wrapped (fetch's `cause`, Stripe's `detail`): the refusal's own words. */
function innermost(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 6; depth += 1) {
    const next = (current as { cause?: unknown; detail?: unknown } | undefined)?.cause ?? (current as { detail?: unknown } | undefined)?.detail;
    if (!next || typeof next !== 'object') break;
    current = next;
  }
  return current;
}

/** A connect-time refusal's text, for the outcome or the run's error. */
export const refusedAtConnect = (error: unknown) =>
  `The destination was refused when connecting (it resolves to a loopback, private, link-local or reserved address now): ${String((innermost(error) as Error)?.message ?? error).slice(0, 200)}`;

/** Every host is fine (unit tests, and hosts that need no guard). */
export const ANY_DESTINATION: DestinationGuard = { check: async () => 'ok' };

/** The host of a settings URL, without IPv6 brackets (`settings.base_url` → `hr.example.com`). */
export function urlDestination(param: string, url: string): Destination {
  return { param, host: new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '') };
}

/** The first of the settings' destinations that resolves to a non-public address, if any. */
export async function internalDestination(guard: DestinationGuard, destinations: readonly Destination[] = []): Promise<Destination | undefined> {
  for (const destination of destinations) {
    // An unresolvable name is not refused here: the connection test reports it as unreachable.
    if ((await guard.check(destination.host)) === 'not_public') return destination;
  }
  return undefined;
}

const refusal = (d: Destination) =>
  `The host ${d.host} resolves to a loopback, private, link-local or reserved address; an operator can allow it with CONNECTOR_ALLOWED_INTERNAL_HOSTS`;

/** 400 destination_not_allowed, naming the settings field. */
export const destinationNotAllowed = (d: Destination) => invalid('destination_not_allowed', refusal(d), d.param);

/** The same refusal when a stored connection is opened for a step (a permanent failure of the run). */
export const destinationRefused = (d: Destination) => new DomainError('conflict', 'destination_not_allowed', refusal(d), { param: d.param });

/** A connect-time refusal as a step's failure: permanent, as when the connection is opened. */
export const destinationRefusedAtConnect = (error: unknown) => new DomainError('conflict', 'destination_not_allowed', refusedAtConnect(error));

/** The connection test's outcome for a refused destination. */
export const refusedOutcome = (d: Destination) => ({ ok: false as const, code: 'destination_not_allowed', message: refusal(d) });

/** The connection test's outcome for a destination refused when connecting. */
export const refusedAtConnectOutcome = (error: unknown) => ({ ok: false as const, code: 'destination_not_allowed', message: refusedAtConnect(error) });
