/**
 * The pinned network against DNS rebinding, with a resolver injected: a name that answers a
 * public address first (what the check when settings were saved saw) and 127.0.0.1 after (what
 * the connection would reach). The connection is refused inside its own lookup and never
 * reaches the server listening on loopback; address literals (no lookup happens for them) and
 * redirects to them are refused too; a host the operator allowed connects. The fetches of URLs
 * the webhooks' destination policy admitted (a time-stamp authority, an import feed) and of
 * issuers' documents answer their own refusal codes.
 */
import { strict as assert } from 'node:assert';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { isPublicAddress } from '../../src/platform/network/address-policy';
import { isDestinationRefused, pinnedNetwork, type DnsLookup, type OutboundNetwork } from '../../src/platform/network/pinned-network';
import { HttpDocumentFetcher } from '../../src/features/credential-checks/verification/document-fetcher';
import { HttpTimestampAuthority } from '../../src/features/esign/documents/timestamp-authority-client';
import { FeedFetchError } from '../../src/features/job-import/domain/feed-import';
import { HttpFeedFetcher } from '../../src/features/job-import/storage/http-feed-fetcher';
import { DomainError } from '../../src/kernel/errors';

/** Answers `answers[n]` to the n-th question (the last one from then on), recording the names asked. */
function scriptedResolver(...answers: string[][]): DnsLookup & { asked: string[] } {
  const asked: string[] = [];
  const resolver = ((hostname, _options, callback) => {
    const addresses = answers[Math.min(asked.length, answers.length - 1)]!;
    asked.push(hostname);
    setImmediate(() =>
      callback(
        null,
        addresses.map((address): LookupAddress => ({ address, family: net.isIPv6(address) ? 6 : 4 })),
      ),
    );
  }) as DnsLookup & { asked: string[] };
  resolver.asked = asked;
  return resolver;
}

/** What the check before the connection saw: the same resolver, asked once. */
const checkedPublic = (network: { lookup: net.LookupFunction }, host: string) =>
  new Promise<string[]>((resolve, reject) =>
    network.lookup(host, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve((addresses as unknown as LookupAddress[]).map((a) => a.address)),
    ),
  );

describe('pinned network: what is checked is what is connected to', () => {
  let server: http.Server;
  let port: number;
  const hits: string[] = [];
  let tcpConnections = 0;
  const networks: OutboundNetwork[] = [];
  const open = (options: Parameters<typeof pinnedNetwork>[0]) => {
    const network = pinnedNetwork(options);
    networks.push(network);
    return network;
  };

  before(async () => {
    server = http.createServer((request, response) => {
      hits.push(request.url ?? '');
      if (request.url === '/hop') {
        response.writeHead(302, { location: `http://127.0.0.1:${port}/metadata` });
        return response.end();
      }
      response.end('secret');
    });
    server.on('connection', () => (tcpConnections += 1));
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    hits.length = 0;
    tcpConnections = 0;
  });
  after(async () => {
    await Promise.all(networks.map((n) => n.close()));
    await new Promise((resolve) => server.close(resolve));
  });

  it('fetch: a name that answered a public address to the check and 127.0.0.1 to the connect is refused; the local server sees nothing', async () => {
    const rebinding = scriptedResolver(['93.184.215.14'], ['127.0.0.1']);
    const network = open({ allowedInternalHosts: [], dnsLookup: rebinding });
    // The check (first answer): public.
    assert.ok((await checkedPublic(network, 'rebind.example')).every(isPublicAddress));
    // The connection (second answer): loopback, refused inside the connection's own lookup.
    await assert.rejects(network.fetch(`http://rebind.example:${port}/latest/meta-data`), (error: unknown) => {
      assert.ok(isDestinationRefused(error), String(error));
      assert.match(String((error as { cause?: Error }).cause?.message), /rebind\.example resolves to 127\.0\.0\.1/);
      return true;
    });
    assert.deepEqual(rebinding.asked, ['rebind.example', 'rebind.example']);
    assert.deepEqual([hits, tcpConnections], [[], 0]);
  });

  it('a TCP connection (SMTP, SFTP): the same rebinding is refused before any byte reaches the server', async () => {
    const rebinding = scriptedResolver(['2606:2800:21f:cb07:6820:80da:af6b:8b2c'], ['169.254.169.254', '127.0.0.1']);
    const network = open({ allowedInternalHosts: [], dnsLookup: rebinding });
    assert.ok((await checkedPublic(network, 'relay.example')).every(isPublicAddress));
    await assert.rejects(network.connect('relay.example', port, 5000), (error: unknown) => isDestinationRefused(error));
    // net/tls `lookup` option (SMPP): the same check.
    const socket = net.connect({ host: 'relay.example', port, lookup: network.lookup });
    const failed = await new Promise<Error>((resolve) => socket.once('error', resolve));
    assert.ok(isDestinationRefused(failed), String(failed));
    assert.equal(tcpConnections, 0);
  });

  it('any inward answer among several is refused (no picking the public one to pass the check)', async () => {
    const network = open({ allowedInternalHosts: [], dnsLookup: scriptedResolver(['93.184.215.14', '10.0.0.7']) });
    await assert.rejects(network.fetch(`http://mixed.example:${port}/`), (error: unknown) => isDestinationRefused(error));
    assert.equal(tcpConnections, 0);
  });

  it('address literals are checked without a lookup, and so is every redirect hop', async () => {
    const resolver = scriptedResolver(['127.0.0.1']);
    const network = open({ allowedInternalHosts: ['localhost.test'], dnsLookup: resolver });
    for (const url of [`http://127.0.0.1:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, `http://[::1]:${port}/`]) {
      await assert.rejects(network.fetch(url), (error: unknown) => isDestinationRefused(error), url);
    }
    await assert.rejects(network.connect('127.0.0.1', port, 5000), (error: unknown) => isDestinationRefused(error));
    assert.throws(
      () => network.checkLiteral('169.254.169.254'),
      (error: unknown) => isDestinationRefused(error),
    );
    assert.deepEqual([hits, tcpConnections, resolver.asked], [[], 0, []]);
    // An allowed name answers a redirect to an inward literal: the hop is refused, /metadata never asked.
    await assert.rejects(network.fetch(`http://localhost.test:${port}/hop`), (error: unknown) => isDestinationRefused(error));
    assert.deepEqual(hits, ['/hop']);
  });

  it('a host the operator allowed connects although it is internal (by name or by address)', async () => {
    const network = open({ allowedInternalHosts: ['hr.internal', '127.0.0.1'], dnsLookup: scriptedResolver(['127.0.0.1']) });
    assert.equal(await (await network.fetch(`http://hr.internal:${port}/a`)).text(), 'secret');
    assert.equal(await (await network.fetch(`http://127.0.0.1:${port}/b`)).text(), 'secret');
    const socket = await network.connect('hr.internal', port, 5000);
    socket.destroy();
    assert.deepEqual(hits, ['/a', '/b']);
  });

  it('a name that does not resolve is an ordinary network error, not a refusal', async () => {
    const network = open({ allowedInternalHosts: [], dnsLookup: scriptedResolver([]) });
    await assert.rejects(network.fetch(`http://nowhere.example:${port}/`), (error: unknown) => !isDestinationRefused(error));
  });

  describe('URLs the destination policy admitted, rebinding when fetched', () => {
    // The policy's check saw the first (public) answer and passed; the connection asks again.
    const admitted = { check: async () => undefined };
    const rebinding = () => open({ allowedInternalHosts: [], dnsLookup: scriptedResolver(['127.0.0.1']) });

    it('an import feed fails with feed_url_refused', async () => {
      const fetcher = new HttpFeedFetcher(admitted, 'test', rebinding());
      await assert.rejects(fetcher.fetch(`http://feeds.rebind.example:${port}/jobs.xml`, {}), (error: unknown) => {
        assert.ok(error instanceof FeedFetchError);
        assert.equal(error.code, 'feed_url_refused');
        return true;
      });
      assert.deepEqual([hits, tcpConnections], [[], 0]);
    });

    it('a time-stamp authority fails with timestamp_unavailable, "refused"', async () => {
      const tsa = new HttpTimestampAuthority(admitted, 'test', rebinding());
      await assert.rejects(tsa.timestamp(`http://tsa.rebind.example:${port}/tsa`, Buffer.alloc(32)), (error: unknown) => {
        assert.ok(error instanceof DomainError);
        assert.equal(error.code, 'timestamp_unavailable');
        assert.match(error.message, /URL is refused/);
        return true;
      });
      assert.deepEqual([hits, tcpConnections], [[], 0]);
    });

    it("an issuer's did:web document is not fetched from an address that is not public", async () => {
      const fetcher = new HttpDocumentFetcher({ allowLoopbackHttp: false, network: rebinding() });
      await assert.rejects(fetcher.text(`https://issuer.rebind.example:${port}/.well-known/did.json`), /not public/);
      assert.deepEqual([hits, tcpConnections], [[], 0]);
    });
  });
});
