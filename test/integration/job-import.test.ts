/**
 * job_import.import_jobs, the import itself (not yet wired to an API or a schedule): a local
 * HTTP server serves our own XML job feed (the job-feeds output: a round trip); the import
 * upserts the standalone host's listings by external id, reports bad jobs with their
 * position, answers the next fetch with a conditional GET (304: nothing done), closes what
 * left the feed, refuses internal addresses (the webhooks' policy), and reads a 10,000-job
 * feed in bounded memory (a streaming parser).
 */
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { xmlFeed } from '../../src/features/job-feeds/domain/feed-documents';
import { FeedImport, type ImportOutcome } from '../../src/features/job-import/domain/feed-import';
import { readXmlFeed } from '../../src/features/job-import/domain/xml-feed-reader';
import { readJsonFeed } from '../../src/features/job-import/domain/json-feed-reader';
import { HttpFeedFetcher } from '../../src/features/job-import/storage/http-feed-fetcher';
import type { Listing } from '../../src/features/listings/domain/listing';
import { ResolvingDestinationPolicy } from '../../src/features/webhooks/sending/destination-policy';
import { pinnedNetwork } from '../../src/platform/network/pinned-network';
import { migrateLatest } from '../../src/platform/database/migrator';
import { HOST_MIGRATIONS } from '../../src/standalone/host/standalone-host';
import { ListingsStore } from '../../src/standalone/host/listings-store';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

const ORG = 'org_importer1';
const listing = (id: string, title: string, extra: Partial<Listing> = {}): Listing => ({
  id,
  organizationId: 'org_source',
  title,
  status: 'open',
  questions: [],
  externalId: id,
  createdAt: new Date('2026-11-01T00:00:00Z'),
  ...extra,
});

describe('job import (job_import.import_jobs): the feed import', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let store: ListingsStore;
  let server: Server;
  let base: string;
  /** What the server serves at /feed.xml, and how often it was asked. */
  let body = '';
  let etag = '"v1"';
  let requests = 0;
  const fetcher = new HttpFeedFetcher(
    new ResolvingDestinationPolicy({ production: false, allowedInternalHosts: ['127.0.0.1'], httpAllowedHosts: [] }),
    'test',
    pinnedNetwork({ allowedInternalHosts: ['127.0.0.1'] }),
  );

  const feedOf = (jobs: Listing[]) =>
    xmlFeed({
      organizationId: 'org_source',
      organizationName: 'Source & Co',
      listingUrlTemplate: 'https://jobs.source.example/{listing_id}',
      listings: jobs,
      now: new Date('2026-11-27T00:00:00Z'),
      publisher: 'hiring-integrations',
      feedUrl: 'https://source.example/jobs.xml',
    });

  before(async () => {
    database = await createTestDatabase();
    await migrateLatest(database.db, HOST_MIGRATIONS);
    store = new ListingsStore(database.db);
    server = createServer((req, res) => {
      requests += 1;
      if (req.url === '/big.xml') return void streamBigFeed(res);
      if (req.url === '/big.json') return void streamBigJsonFeed(res);
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304).end();
      res.writeHead(200, { 'content-type': 'application/xml', etag }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server?.close();
    await database?.drop();
  });

  let state = { validators: {}, externalIds: [] as string[] };
  const importer = () => new FeedImport(fetcher, store);
  const run = async (): Promise<ImportOutcome> => {
    const outcome = await importer().run(ORG, `${base}/feed.xml`, state);
    if (outcome.status === 'imported') state = { validators: outcome.validators, externalIds: outcome.externalIds };
    return outcome;
  };
  const byExternalId = async (id: string) => (await store.list(ORG, { limit: 1, externalId: id })).data[0];

  it('creates listings from our own feed, reporting the jobs it cannot take; an unchanged feed is a 304', async () => {
    body = feedOf([
      listing('ats-1', 'Night nurse', { description: 'Care for <patients> & families\n\nNights only', location: 'Lyon' }),
      listing('ats-2', 'Welder'),
      listing('ats-3', 'Coder', { location: 'Remote' }),
    ])
      // A job without a title and a second ats-2: reported, the rest imported.
      .replace(
        '</source>',
        '  <job><referencenumber>ats-4</referencenumber></job>\n  <job><title>Again</title><referencenumber>ats-2</referencenumber></job>\n</source>',
      );
    const first = await run();
    assert.equal(first.status, 'imported', JSON.stringify(first));
    if (first.status !== 'imported') return;
    assert.deepEqual([first.jobs, first.created, first.updated, first.closed, first.errorCount], [5, 3, 0, 0, 2]);
    assert.deepEqual(
      first.errors.map((e) => [e.position, e.reference, e.code]),
      [
        [4, 'ats-4', 'title_missing'],
        [5, 'ats-2', 'reference_duplicate'],
      ],
    );
    const nurse = await byExternalId('ats-1');
    assert.equal(nurse?.title, 'Night nurse');
    assert.equal(nurse?.description, 'Care for <patients> & families\n\nNights only');
    assert.equal(nurse?.location, 'Lyon');
    assert.equal(nurse?.status, 'open');

    const before = requests;
    assert.deepEqual(await run(), { status: 'not_modified' });
    assert.equal(requests, before + 1);
  });

  it('updates what changed and closes what left the feed; a malformed feed closes nothing', async () => {
    etag = '"v2"';
    body = feedOf([listing('ats-1', 'Night nurse (RN)', { location: 'Lyon' }), listing('ats-3', 'Coder', { location: 'Remote' })]);
    const second = await run();
    assert.equal(second.status, 'imported', JSON.stringify(second));
    if (second.status !== 'imported') return;
    assert.deepEqual([second.created, second.updated, second.closed], [0, 2, 1]);
    assert.equal((await byExternalId('ats-1'))?.title, 'Night nurse (RN)');
    assert.equal((await byExternalId('ats-2'))?.status, 'closed');

    etag = '"v3"';
    body = '<?xml version="1.0"?><source><job><title>Broken</job></source>';
    const broken = await run();
    assert.equal(broken.status, 'failed');
    assert.equal(broken.status === 'failed' && broken.code, 'feed_malformed');
    assert.equal((await byExternalId('ats-3'))?.status, 'open');
  });

  it('refuses feed URLs on internal addresses, and reports an unreachable feed', async () => {
    const refused = await importer().run(ORG, 'http://169.254.169.254/latest/meta-data', { validators: {}, externalIds: [] });
    assert.deepEqual(refused.status === 'failed' && refused.code, 'feed_url_refused');
    const answered = await new FeedImport(fetcher, store).run(ORG, 'http://127.0.0.1:1/feed.xml', { validators: {}, externalIds: [] });
    assert.equal(answered.status === 'failed' && answered.code, 'feed_unreachable');
  });

  it('reads a 10,000-job feed (about 25 MB) in bounded memory', async () => {
    const response = await fetcher.fetch(`${base}/big.xml`, {});
    assert.equal(response.kind, 'feed');
    if (response.kind !== 'feed') return;
    global.gc?.();
    const start = process.memoryUsage().heapUsed;
    let peak = 0;
    let jobs = 0;
    for await (const job of readXmlFeed(response.body)) {
      jobs += 1;
      assert.ok(job.title && job.referencenumber);
      if (jobs % 500 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - start);
    }
    assert.equal(jobs, 10_000);
    // The whole feed is ~25 MB; reading it holds a chunk and a job at a time (garbage aside).
    assert.ok(peak < 20 * 1024 * 1024, `heap grew by ${Math.round(peak / 1024 / 1024)} MB`);
  });

  it('reads a 10,000-job JSON feed (about 25 MB) in bounded memory too, and refuses a JSON document that is no job feed', async () => {
    const response = await fetcher.fetch(`${base}/big.json`, {});
    assert.equal(response.kind, 'feed');
    if (response.kind !== 'feed') return;
    global.gc?.();
    const start = process.memoryUsage().heapUsed;
    let peak = 0;
    let jobs = 0;
    for await (const job of readJsonFeed(response.body)) {
      jobs += 1;
      assert.ok(job.title && job.referencenumber && job.description);
      if (jobs % 500 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - start);
    }
    assert.equal(jobs, 10_000);
    assert.ok(peak < 20 * 1024 * 1024, `heap grew by ${Math.round(peak / 1024 / 1024)} MB`);
    const notAFeed = async () => {
      for await (const job of readJsonFeed(
        (async function* () {
          yield Buffer.from('{"object":"list","data":[{"title":"x"}]}');
        })(),
      ))
        assert.fail(`read ${JSON.stringify(job)}`);
    };
    await assert.rejects(notAFeed, /job feed/);
  });
});

/** The same 10,000 jobs in our JSON feed format, written as the client reads them. */
function streamBigJsonFeed(res: import('node:http').ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const text = 'Lorem ipsum dolor sit amet, &amp; consectetur adipiscing elit. '.repeat(36);
  let i = 0;
  res.write('{"object":"job_feed","organization":{"id":"org_big","name":"Big"},"data":[');
  const more = () => {
    while (i < 10_000) {
      i += 1;
      const job = {
        id: `listing_${i}`,
        reference_number: `big-${i}`,
        title: `Job ${i}`,
        url: `https://x.example/${i}`,
        location: null,
        job_posting: { description: `<p>${text}</p>` },
      };
      const ok = res.write(`${i > 1 ? ',' : ''}${JSON.stringify(job)}\n`);
      if (!ok) return void res.once('drain', more);
    }
    res.end(']}\n');
  };
  more();
}

/** 10,000 jobs of ~2.5 KB each, written as the client reads them (never a whole string in memory). */
function streamBigFeed(res: import('node:http').ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/xml' });
  const text = 'Lorem ipsum dolor sit amet, &amp; consectetur adipiscing elit. '.repeat(36);
  let i = 0;
  res.write('<?xml version="1.0" encoding="UTF-8"?>\n<source><publisher>big</publisher>\n');
  const more = () => {
    while (i < 10_000) {
      i += 1;
      const ok = res.write(
        `<job><title>Job ${i}</title><date>Tue, 24 Nov 2026 10:00:00 GMT</date><referencenumber>big-${i}</referencenumber><url>https://x.example/${i}</url><company>Big</company><description><![CDATA[<p>${text}</p>]]></description></job>\n`,
      );
      if (!ok) return void res.once('drain', more);
    }
    res.end('</source>\n');
  };
  more();
}
