/**
 * Which IP addresses an outgoing request to a URL an organization gave us (a webhook, a
 * connector's base URL) may reach: the SSRF guard. Only global unicast addresses, by default:
 * loopback, private (RFC 1918, unique local), link-local (with the cloud metadata address
 * 169.254.169.254), carrier-grade NAT, unspecified, multicast and reserved ranges are
 * refused. IPv6 is global only inside 2000::/3 and outside the special ranges IANA lists
 * (Teredo, documentation, benchmarking, ORCHID, …); everything in ::/8 (the unspecified,
 * loopback and deprecated IPv4-compatible `::a.b.c.d` forms) is refused. Forms that carry
 * an IPv4 address the network can reach through them are judged as that IPv4: the mapped
 * form ::ffff:a.b.c.d, NAT64's well-known prefix 64:ff9b::/96 (an IPv6-only host with
 * DNS64 sees every public name this way) and 6to4 2002:aabb:ccdd::/48. The local-use
 * NAT64 prefix 64:ff9b:1::/48 is the operator's own network: refused.
 * Host names the operator lists (WEBHOOK_ALLOWED_INTERNAL_HOSTS for webhooks) skip the
 * check: self-hosters' ATS often lives on a private network.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** 2000::/3, the only IPv6 block IANA allocates for global unicast. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');

const isPublicIPv4 = (address: ipaddr.IPv4): boolean => address.range() === 'unicast';

/** The IPv4 address a translated or tunnelled IPv6 address stands for, if it is one of those forms. */
function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  if (address.isIPv4MappedAddress() || address.match(NAT64_WELL_KNOWN)) return new ipaddr.IPv4(bytes.slice(12, 16));
  if (address.match(SIX_TO_FOUR)) return new ipaddr.IPv4(bytes.slice(2, 6));
  return undefined;
}

function isPublicIPv6(address: ipaddr.IPv6): boolean {
  const carried = carriedIPv4(address);
  if (carried) return isPublicIPv4(carried);
  return address.match(GLOBAL_UNICAST) && address.range() === 'unicast';
}

/**
 * ipaddr.js reads the IPv4-compatible `::a.b.c.d` as the mapped ::ffff:a.b.c.d; the URL
 * parser writes every IPv6 address in hex groups, which ipaddr.js reads exactly.
 */
function parseIPv6(address: string): ipaddr.IPv6 | undefined {
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
  } catch {
    return undefined; // not an address a URL can hold (a zone id, for one): never a destination
  }
}

export function isPublicAddress(address: string): boolean {
  if (ipaddr.IPv4.isValid(address)) return isPublicIPv4(ipaddr.IPv4.parse(address));
  if (!ipaddr.IPv6.isValid(address)) return false;
  const parsed = parseIPv6(address);
  return parsed !== undefined && isPublicIPv6(parsed);
}

/** The host part of a URL, lower case, without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
}

/** Thrown by the guarded lookup (and `checkAddresses`) for a destination that is not public. */
export class DestinationRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefusedError';
  }
}

/** What `dns.lookup` is to the guard (tests inject a resolver that answers differently per call: DNS rebinding). */
export type DnsLookup = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/**
 * A DNS lookup for node:http(s)/net/tls that refuses non-public addresses, so what is checked
 * is exactly what is connected to (a name that later resolves to 127.0.0.1 or the metadata
 * address, DNS rebinding, is refused at connect time). `allowInternal` (for every name, or
 * per name) skips the check; every address of the answer must be public, not just one.
 */
export function guardedLookup(
  allowInternal: boolean | ((hostname: string) => boolean),
  refused: (message: string) => Error = (m) => new DestinationRefusedError(m),
  resolve: DnsLookup = dnsLookup as unknown as DnsLookup,
): LookupFunction {
  return (hostname, options, callback) => {
    const answer = callback as unknown as (error: Error | null, address: string | LookupAddress[], family?: number) => void;
    resolve(hostname, { ...(options as LookupOptions), all: true }, (error, list) => {
      if (error) return answer(error, '', 0);
      if (list.length === 0) return answer(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '', 0);
      const allowed = typeof allowInternal === 'function' ? allowInternal(hostname) : allowInternal;
      const bad = allowed ? undefined : list.find((a) => !isPublicAddress(a.address));
      if (bad) return answer(refused(`${hostname} resolves to ${bad.address}, not a public address`), '', 0);
      if ((options as LookupOptions).all) return answer(null, list);
      answer(null, list[0]!.address, list[0]!.family);
    });
  };
}

/** Every address `host` resolves to (the host itself when it is an address); empty when it does not resolve. */
export async function resolveHost(host: string): Promise<string[]> {
  if (ipaddr.isValid(host)) return [host];
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return [];
  }
}

/**
 * The check before a URL is stored (a webhook endpoint, a connection's base URL): 'ok',
 * 'unresolvable' or 'not_public'. Hosts in `allowedInternalHosts` are always 'ok'; the
 * connection is checked again at connect time (guardedLookup).
 */
export async function checkHost(host: string, allowedInternalHosts: readonly string[]): Promise<'ok' | 'unresolvable' | 'not_public'> {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (allowedInternalHosts.includes(name)) return 'ok';
  const addresses = await resolveHost(name);
  if (addresses.length === 0) return 'unresolvable';
  return addresses.every(isPublicAddress) ? 'ok' : 'not_public';
}
