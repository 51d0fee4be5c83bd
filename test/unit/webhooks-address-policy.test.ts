/** Webhook destinations: every reserved IPv6 form is refused, and IPv6 that carries an IPv4 is judged as that IPv4. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { isPublicAddress } from '../../src/platform/network/address-policy';

const hex = (a: number, b: number) => ((a << 8) | b).toString(16);

/** The IPv6 forms that embed an IPv4 address a.b.c.d. */
function embeddings([a, b, c, d]: number[]): Record<string, string> {
  return {
    compatible: `::${a}.${b}.${c}.${d}`,
    mapped: `::ffff:${a}.${b}.${c}.${d}`,
    translated: `::ffff:0:${a}.${b}.${c}.${d}`,
    nat64: `64:ff9b::${a}.${b}.${c}.${d}`,
    nat64Local: `64:ff9b:1:${hex(a!, b!)}:${hex(c!, d!)}::`,
    sixToFour: `2002:${hex(a!, b!)}:${hex(c!, d!)}::1`,
    teredo: `2001:0:${hex(a!, b!)}:${hex(c!, d!)}::1`,
  };
}

describe('webhook destination addresses', () => {
  it('refuses every reserved IPv6 range', () => {
    const reserved = {
      '::/128 unspecified': '::',
      '::1 loopback': '::1',
      '::/8 IPv4-compatible loopback': '::127.0.0.1',
      '::/8 IPv4-compatible public': '::8.8.8.8',
      '::/8 other': '::1234:5678',
      '::ffff:0:0/96 mapped private': '::ffff:10.0.0.1',
      '64:ff9b::/96 NAT64 of loopback': '64:ff9b::127.0.0.1',
      '64:ff9b::/96 NAT64 of metadata': '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::/48 local-use NAT64': '64:ff9b:1::808:808',
      '100::/64 discard': '100::1',
      '2001::/32 Teredo': '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001:2::/48 benchmarking': '2001:2::1',
      '2001:10::/28 ORCHID': '2001:10::1',
      '2001:20::/28 ORCHIDv2': '2001:20::1',
      '2001:db8::/32 documentation': '2001:db8::1',
      '3fff::/20 documentation': '3fff::1',
      '2002::/16 6to4 of private': '2002:c0a8:0101::1',
      '2002::/16 6to4 of loopback': '2002:7f00:1::1',
      '5f00::/16 segment routing': '5f00::1',
      'fc00::/7 unique local': 'fc00::1',
      'fd00::/8 unique local': 'fd12:3456::1',
      'fe80::/10 link-local': 'fe80::1',
      'fe80::/10 link-local with zone': 'fe80::1%eth0',
      'fec0::/10 site-local': 'fec0::1',
      'ff00::/8 multicast': 'ff02::1',
      'outside 2000::/3': '4000::1',
      'outside 2000::/3, high': 'e000::1',
    };
    for (const [name, address] of Object.entries(reserved)) assert.equal(isPublicAddress(address), false, `${name}: ${address}`);
  });

  it('accepts global unicast IPv6, and NAT64 / 6to4 forms of a public IPv4 (an IPv6-only host with DNS64 sees those)', () => {
    for (const address of ['2606:4700::6810:84e5', '2a00:1450:4001:80b::200e', '64:ff9b::8.8.8.8', '2002:808:808::1']) {
      assert.equal(isPublicAddress(address), true, address);
    }
  });

  it('judges every IPv6 form embedding a non-public IPv4 as that IPv4: refused', () => {
    const nonPublicIPv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).filter((bytes) => new ipaddr.IPv4(bytes).range() !== 'unicast');
    fc.assert(
      fc.property(nonPublicIPv4, (bytes) => {
        assert.equal(isPublicAddress(bytes.join('.')), false);
        for (const [form, address] of Object.entries(embeddings(bytes))) assert.equal(isPublicAddress(address), false, `${form} ${address}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('never accepts an IPv6 address outside 2000::/3, whatever it is', () => {
    const outside = fc
      .array(fc.nat(0xffff), { minLength: 8, maxLength: 8 })
      .filter((parts) => parts[0]! < 0x2000 || parts[0]! >= 0x4000)
      // The forms that carry an IPv4 are judged as that IPv4 (above).
      .filter((parts) => !(parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((p) => p === 0)))
      .filter((parts) => !(parts.slice(0, 5).every((p) => p === 0) && parts[5] === 0xffff));
    fc.assert(
      fc.property(outside, (parts) => assert.equal(isPublicAddress(new ipaddr.IPv6(parts).toString()), false)),
      { numRuns: 2000 },
    );
  });
});
