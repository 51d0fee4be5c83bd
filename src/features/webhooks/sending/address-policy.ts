/**
 * Which IP addresses a webhook may reach. Only global unicast addresses, by default:
 * loopback, private (RFC 1918, unique local), link-local (with the cloud metadata address
 * 169.254.169.254), carrier-grade NAT, unspecified, multicast and reserved ranges are
 * refused. IPv6 is global only inside 2000::/3 and outside the special ranges IANA lists
 * (Teredo, documentation, benchmarking, ORCHID, …); everything in ::/8 (the unspecified,
 * loopback and deprecated IPv4-compatible `::a.b.c.d` forms) is refused. Forms that carry
 * an IPv4 address the network can reach through them are judged as that IPv4: the mapped
 * form ::ffff:a.b.c.d, NAT64's well-known prefix 64:ff9b::/96 (an IPv6-only host with
 * DNS64 sees every public name this way) and 6to4 2002:aabb:ccdd::/48. The local-use
 * NAT64 prefix 64:ff9b:1::/48 is the operator's own network: refused.
 * Host names the operator lists (WEBHOOK_ALLOWED_INTERNAL_HOSTS) skip the check:
 * self-hosters' ATS often lives on a private network.
 */
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
