/**
 * Which IP addresses a webhook may reach. Only global unicast addresses, by default:
 * loopback, private (RFC 1918, unique local), link-local (with the cloud metadata address
 * 169.254.169.254), carrier-grade NAT, unspecified, multicast and reserved ranges are
 * refused, IPv4-mapped IPv6 judged as the IPv4 it carries. Host names the operator lists
 * (WEBHOOK_ALLOWED_INTERNAL_HOSTS) skip the check: self-hosters' ATS often lives on a
 * private network.
 */
import ipaddr from 'ipaddr.js';

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'unicast';
}

/** The host part of a URL, lower case, without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
}
