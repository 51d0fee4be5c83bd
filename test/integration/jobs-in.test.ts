/**
 * Jobs in and applications in (issue 28 §2, §3) through the standalone host.
 * job_import.import_jobs: a feed registered over the API is imported by the schedule (a
 * 1-second sweep here) from a local HTTP server serving our own XML and JSON feeds; an
 * import on demand answers 304 as a succeeded no-op, then updates and closes; garbage is a
 * failed import and a failed action run with its code.
 * job_boards.import_applications: a board application signed per Standard Webhooks (Indeed
 * Apply's JSON) enters the pipeline once (application.submitted, source = the board); a
 * replayed delivery or the same person again makes no second one; bad or missing signatures,
 * old timestamps, reused ids, unknown or closed listings and oversized resumes are refused
 * with their codes.
 */
import { strict as assert } from 'node:assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonFeed, xmlFeed } from '../../src/features/job-feeds/domain/feed-documents';
import type { Listing } from '../../src/features/listings/domain/listing';
import { waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { Webhook } from 'standardwebhooks';

const source = (id: string, title: string, extra: Partial<Listing> = {}): Listing => ({
  id,
  organizationId: 'org_source',
  title,
  status: 'open',
  questions: [],
  externalId: id,
  createdAt: new Date('2026-11-01T00:00:00Z'),
  ...extra,
});
const feedInput = (listings: Listing[]) => ({
  organizationId: 'org_source',
  organizationName: 'Source & Co',
  listingUrlTemplate: 'https://jobs.source.example/{listing_id}',
  listings,
  now: new Date('2026-11-27T00:00:00Z'),
  publisher: 'hiring-integrations',
  feedUrl: 'https://source.example/jobs.xml',
});

describe('jobs in (job_import.import_jobs) and applications in (job_boards.import_applications)', function () {
  this.timeout(60_000);
  let t: TestHost;
  let acme: { organizationId: string; apiKey: string };
  let feeds: Server;
  let feedBase = '';
  /** What the feed server answers per path: a body and its ETag. */
  const served: Record<string, { body: string; etag: string; type: string }> = {};

  const activate = async (action: string) => {
    const activated = await t.request('POST', `/v1/integrations/licenses/${action}/activate`, { auth: acme.apiKey });
    assert.ok(activated.status === 200 || activated.status === 202, activated.text);
    await waitFor(async () => {
      const list = await t.request('GET', `/v1/integrations/licenses?action_key=${action}`, { auth: acme.apiKey });
      return list.body.data.find((l: { status: string }) => l.status === 'active');
    }, `the ${action} license to be active`);
  };

  before(async () => {
    feeds = createServer((req, res) => {
      const feed = served[req.url ?? ''];
      if (!feed) return void res.writeHead(404).end();
      if (req.headers['if-none-match'] === feed.etag) return void res.writeHead(304).end();
      res.writeHead(200, { 'content-type': feed.type, etag: feed.etag }).end(feed.body);
    });
    await new Promise<void>((resolve) => feeds.listen(0, '127.0.0.1', resolve));
    feedBase = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}`;
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', WEBHOOK_ALLOWED_INTERNAL_HOSTS: '127.0.0.1', JOB_IMPORT_SWEEP_INTERVAL_SECONDS: '1' } });
    acme = await t.createOrganization('Acme');
    await activate('job_import.import_jobs');
  });
  after(async () => {
    feeds?.close();
    await t?.close();
  });

  const byExternalId = async (externalId: string) =>
    (await t.request('GET', `/v1/listings?external_id=${encodeURIComponent(externalId)}`, { auth: acme.apiKey })).body.data[0];
  const finished = (importId: string) =>
    waitFor(async () => {
      const got = await t.request('GET', `/v1/job-imports/${importId}`, { auth: acme.apiKey });
      assert.equal(got.status, 200, got.text);
      return got.body.status === 'succeeded' || got.body.status === 'failed' ? got.body : undefined;
    }, `import ${importId} to finish`);
  const runNow = async (feedId: string) => {
    const run = await t.request('POST', `/v1/job-imports/feeds/${feedId}/run`, { auth: acme.apiKey });
    assert.equal(run.status, 202, run.text);
    assert.match(run.body.id, /^jimp_/);
    return finished(run.body.id);
  };

  it('imports a registered XML feed on its schedule, answers 304 as a succeeded no-op, then updates and closes', async () => {
    served['/jobs.xml'] = {
      type: 'application/xml',
      etag: '"x1"',
      body: xmlFeed(feedInput([source('ats-1', 'Night nurse', { location: 'Lyon' }), source('ats-2', 'Welder'), source('ats-3', 'Coder')])).replace(
        '</source>',
        '<job><referencenumber>ats-4</referencenumber></job></source>',
      ),
    };
    const refused = await t.request('POST', '/v1/job-imports/feeds', { auth: acme.apiKey, body: { url: 'http://169.254.169.254/latest', format: 'xml' } });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error.code, 'feed_url_refused');
    const created = await t.request('POST', '/v1/job-imports/feeds', { auth: acme.apiKey, body: { url: `${feedBase}/jobs.xml`, interval_minutes: 15 } });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.id, /^jfeed_/);
    assert.equal(created.body.format, 'xml');
    const feedId: string = created.body.id;

    // No call to /run: the sweep takes the new feed (due at once).
    const scheduled = await waitFor(async () => {
      const list = await t.request('GET', `/v1/job-imports/feeds/${feedId}/imports`, { auth: acme.apiKey });
      const done = list.body.data.find((i: { status: string }) => i.status === 'succeeded' || i.status === 'failed');
      return done;
    }, 'the scheduled import');
    assert.equal(scheduled.trigger, 'schedule');
    assert.equal(scheduled.status, 'succeeded', JSON.stringify(scheduled));
    assert.deepEqual([scheduled.jobs, scheduled.created, scheduled.updated, scheduled.closed, scheduled.error_count], [4, 3, 0, 0, 1]);
    assert.deepEqual(
      scheduled.errors.map((e: { position: number; code: string }) => [e.position, e.code]),
      [[4, 'title_missing']],
    );
    assert.equal((await byExternalId('ats-1'))?.title, 'Night nurse');
    const run = await t.request('GET', `/v1/integrations/runs/${scheduled.run_id}`, { auth: acme.apiKey });
    assert.equal(run.status, 200, run.text);
    assert.deepEqual([run.body.action, run.body.status], ['job_import.import_jobs', 'succeeded']);
    const feed = await t.request('GET', `/v1/job-imports/feeds/${feedId}`, { auth: acme.apiKey });
    assert.equal(feed.body.listings, 4);
    assert.ok(Date.parse(feed.body.next_run_at) > Date.now() + 10 * 60_000, 'the next import is an interval away');

    const unchanged = await runNow(feedId);
    assert.deepEqual([unchanged.status, unchanged.not_modified, unchanged.trigger], ['succeeded', true, 'api']);

    served['/jobs.xml'] = { type: 'application/xml', etag: '"x2"', body: xmlFeed(feedInput([source('ats-1', 'Night nurse (RN)'), source('ats-3', 'Coder')])) };
    const second = await runNow(feedId);
    assert.deepEqual([second.status, second.created, second.updated, second.closed], ['succeeded', 0, 2, 1]);
    assert.equal((await byExternalId('ats-1'))?.title, 'Night nurse (RN)');
    assert.equal((await byExternalId('ats-2'))?.status, 'closed');

    served['/jobs.xml'] = { type: 'application/xml', etag: '"x3"', body: '<html><body>Maintenance</body>' };
    const garbage = await runNow(feedId);
    assert.deepEqual([garbage.status, garbage.error_code], ['failed', 'feed_malformed']);
    const failedRun = await t.request('GET', `/v1/integrations/runs/${garbage.run_id}`, { auth: acme.apiKey });
    assert.deepEqual([failedRun.status, failedRun.body.status, failedRun.body.error?.code], [200, 'failed', 'feed_malformed']);
    assert.equal((await byExternalId('ats-3'))?.status, 'open', 'a feed that cannot be read closes nothing');
    const failedRuns = await t.request('GET', '/v1/integrations/runs?action=job_import.import_jobs&status=failed', { auth: acme.apiKey });
    assert.equal(failedRuns.status, 200, failedRuns.text);
    assert.equal(failedRuns.body.data[0]?.error?.code, 'feed_malformed');
  });

  it('imports our JSON feed (streamed), and manages feeds: list, update, delete; another id is 404', async () => {
    served['/jobs.json'] = {
      type: 'application/json',
      etag: '"j1"',
      body: JSON.stringify(
        jsonFeed(feedInput([source('json-1', 'Baker', { description: 'Bread <b>and</b> cakes', location: 'Paris' }), source('json-2', 'Cook')])),
      ),
    };
    const created = await t.request('POST', '/v1/job-imports/feeds', { auth: acme.apiKey, body: { url: `${feedBase}/jobs.json`, format: 'json' } });
    assert.equal(created.status, 201, created.text);
    const imported = await runNow(created.body.id);
    assert.deepEqual([imported.status, imported.jobs, imported.created + imported.updated, imported.error_count], ['succeeded', 2, 2, 0]);
    const baker = await byExternalId('json-1');
    assert.deepEqual([baker?.title, baker?.location, baker?.description], ['Baker', 'Paris', 'Bread <b>and</b> cakes']);

    served['/jobs.json'] = { type: 'application/json', etag: '"j2"', body: '{"object":"job_feed","data":[{"reference_number":"json-1","title":"Baker"},' };
    const truncated = await runNow(created.body.id);
    assert.deepEqual([truncated.status, truncated.error_code], ['failed', 'feed_malformed']);

    const list = await t.request('GET', '/v1/job-imports/feeds?limit=1', { auth: acme.apiKey });
    assert.deepEqual([list.body.data.length, list.body.has_more], [1, true]);
    const patched = await t.request('PATCH', `/v1/job-imports/feeds/${created.body.id}`, { auth: acme.apiKey, body: { interval_minutes: 1440 } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.interval_minutes, 1440);
    const tooOften = await t.request('PATCH', `/v1/job-imports/feeds/${created.body.id}`, { auth: acme.apiKey, body: { interval_minutes: 1 } });
    assert.equal(tooOften.status, 400);

    const other = await t.createOrganization('Other');
    assert.equal((await t.request('GET', `/v1/job-imports/feeds/${created.body.id}`, { auth: other.apiKey })).status, 404);
    assert.equal((await t.request('GET', `/v1/job-imports/${imported.id}`, { auth: other.apiKey })).status, 404);
    const unlicensed = await t.request('POST', '/v1/job-imports/feeds', { auth: other.apiKey, body: { url: `${feedBase}/jobs.json`, format: 'json' } });
    assert.equal(unlicensed.status, 403);
    assert.equal(unlicensed.body.error.code, 'license_required');

    assert.equal((await t.request('DELETE', `/v1/job-imports/feeds/${created.body.id}`, { auth: acme.apiKey })).status, 200);
    assert.equal((await t.request('GET', `/v1/job-imports/feeds/${created.body.id}`, { auth: acme.apiKey })).status, 404);
    assert.equal((await byExternalId('json-1'))?.status, 'open', 'deleting a feed leaves its listings');
  });

  describe('board applications', () => {
    let secret = '';
    let listingId = '';
    let endpoint = '';
    let sequence = 0;
    const application = (overrides: Record<string, unknown> = {}, applicant: Record<string, unknown> = {}) => ({
      id: `indeed-app-${++sequence}`,
      job: { jobId: 'req-42', jobTitle: 'Night nurse' },
      applicant: {
        fullName: 'Ada Lovelace',
        email: 'Ada@Example.com',
        phoneNumber: '+15555550123',
        resume: { text: 'Nurse, 5 years', file: { fileName: 'ada.pdf', contentType: 'application/pdf', data: Buffer.from('%PDF-1.7 ada').toString('base64') } },
        ...applicant,
      },
      questions: [{ id: 'years_experience', question: 'Years of experience?', answer: 5 }],
      ...overrides,
    });
    const post = (body: unknown, options: { id?: string; at?: Date; key?: string; path?: string; signature?: string } = {}) => {
      const raw = JSON.stringify(body);
      const id = options.id ?? `msg_${++sequence}`;
      const at = options.at ?? new Date();
      const signature = options.signature ?? new Webhook(options.key ?? secret).sign(id, at, raw);
      return t.request('POST', options.path ?? endpoint, {
        rawBody: raw,
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
      });
    };

    before(async () => {
      await activate('job_boards.import_applications');
      const listing = await t.request('POST', '/v1/listings', { auth: acme.apiKey, body: { title: 'Night nurse', external_id: 'req-42' } });
      assert.equal(listing.status, 201, listing.text);
      listingId = listing.body.id;
      const made = await t.request('POST', '/v1/board-applications/secret', { auth: acme.apiKey });
      assert.equal(made.status, 201, made.text);
      assert.match(made.body.secret, /^whsec_/);
      secret = made.body.secret;
      endpoint = `/v1/board-applications/${acme.organizationId}/indeed`;
      assert.equal(made.body.endpoint_url, `${t.baseUrl}/v1/board-applications/${acme.organizationId}/{board}`);
      const shown = await t.request('GET', '/v1/board-applications/secret', { auth: acme.apiKey });
      assert.equal(shown.body.secret, undefined, 'the secret is shown once');
    });

    it('a signed application enters the pipeline once, with the board as its source; a replay or the same person again makes no second', async () => {
      const body = application();
      const first = await post(body, { id: 'msg_first' });
      assert.equal(first.status, 201, first.text);
      assert.equal(first.body.duplicate, false);
      const again = await post(body, { id: 'msg_first' });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body.application_id, first.body.application_id);
      // Another delivery (another board, even) of the same person to the same listing: the same application.
      const sameperson = await post(application({}, { email: 'ada@example.com' }), { path: `/v1/board-applications/${acme.organizationId}/linkedin` });
      assert.equal(sameperson.status, 200, sameperson.text);
      assert.deepEqual([sameperson.body.application_id, sameperson.body.duplicate], [first.body.application_id, true]);
      // Another body under a delivery id already seen: refused.
      const reused = await post(application({}, { fullName: 'Someone Else', email: 'else@example.com' }), { id: 'msg_first' });
      assert.equal(reused.status, 409, reused.text);
      assert.equal(reused.body.error.code, 'webhook_id_reused');

      const listed = await t.request('GET', `/v1/opportunities/listings/${listingId}/applications`, { auth: acme.apiKey });
      assert.equal(listed.status, 200, listed.text);
      assert.equal(listed.body.data.length, 1);
      const submitted = await waitFor(async () => {
        const events = await t.request('GET', '/v1/events?type=application.submitted', { auth: acme.apiKey });
        return events.body.data.find((e: { data: { application_id: string } }) => e.data.application_id === first.body.application_id);
      }, 'application.submitted');
      assert.equal(submitted.data.source, 'indeed');
      assert.equal(submitted.data.candidate_name, 'Ada Lovelace');
      assert.equal(submitted.data.listing_external_id, 'req-42');
      assert.deepEqual(submitted.data.answers, { years_experience: 5 });
      assert.deepEqual(submitted.data.applicant, { email: 'ada@example.com', phone: '+15555550123', has_resume: true });
      // The host's pipeline has the whole applicant, resume included.
      const entry = await waitFor(
        async () => (await t.database.db('host_pipeline_applications').where({ application_id: first.body.application_id }).first())?.payload,
        'the pipeline entry',
      );
      const piped = typeof entry === 'string' ? JSON.parse(entry) : entry;
      assert.equal(piped.source, 'indeed');
      assert.equal(Buffer.from(piped.applicant.resume.file.base64, 'base64').toString(), '%PDF-1.7 ada');
      const stored = await t.database.db('hi_board_applications').where({ application_id: first.body.application_id }).first();
      assert.deepEqual([stored.email, stored.board, Buffer.from(stored.resume_file).toString()], ['ada@example.com', 'indeed', '%PDF-1.7 ada']);
    });

    it('refuses bad and missing signatures, old timestamps, unknown and closed listings, oversized resumes, and organizations without a secret or license', async () => {
      const body = application({}, { email: 'grace@example.com' });
      const forged = await post(body, { key: `whsec_${Buffer.alloc(32, 7).toString('base64')}` });
      assert.deepEqual([forged.status, forged.body.error?.code], [400, 'webhook_signature_invalid']);
      const unsigned = await t.request('POST', endpoint, { body });
      assert.deepEqual([unsigned.status, unsigned.body.error?.code], [400, 'webhook_signature_missing']);
      const old = await post(body, { at: new Date(Date.now() - 10 * 60_000) });
      assert.deepEqual([old.status, old.body.error?.code], [400, 'webhook_timestamp_out_of_range']);
      const unknown = await post(application({ job: { jobId: 'no-such-req' } }, { email: 'grace@example.com' }));
      assert.equal(unknown.status, 404, unknown.text);
      const bad = await post(application({}, { email: 'not an email' }));
      assert.deepEqual([bad.status, bad.body.error?.param], [400, 'applicant.email']);
      const huge = Buffer.alloc(5 * 1024 * 1024 + 1, 1).toString('base64');
      const oversized = await post(
        application({}, { email: 'grace@example.com', resume: { file: { fileName: 'big.pdf', contentType: 'application/pdf', data: huge } } }),
      );
      assert.deepEqual([oversized.status, oversized.body.error?.code], [413, 'resume_too_large']);
      assert.equal((await t.database.db('hi_board_applications').where({ email: 'grace@example.com' })).length, 0, 'nothing refused was written');

      const closed = await t.request('POST', `/v1/listings/${listingId}/close`, { auth: acme.apiKey });
      assert.equal(closed.status, 200, closed.text);
      const late = await post(body);
      assert.deepEqual([late.status, late.body.error?.code], [410, 'listing_closed']);

      const other = await t.createOrganization('Board-less');
      const noSecret = await post(body, { path: `/v1/board-applications/${other.organizationId}/indeed` });
      assert.equal(noSecret.status, 404);
      const otherSecret = (await t.request('POST', '/v1/board-applications/secret', { auth: other.apiKey })).body.secret;
      const unlicensed = await post(body, { path: `/v1/board-applications/${other.organizationId}/indeed`, key: otherSecret });
      assert.deepEqual([unlicensed.status, unlicensed.body.error?.code], [403, 'license_required']);
      // Acme's secret does not open another organization's endpoint.
      const crossed = await post(body, { path: `/v1/board-applications/${other.organizationId}/indeed` });
      assert.deepEqual([crossed.status, crossed.body.error?.code], [400, 'webhook_signature_invalid']);
    });

    it('a rotated secret takes over; the former one verifies during its grace period', async () => {
      const former = secret;
      const rotated = await t.request('POST', '/v1/board-applications/secret', { auth: acme.apiKey });
      assert.equal(rotated.status, 201, rotated.text);
      assert.notEqual(rotated.body.secret, former);
      assert.ok(rotated.body.previous_valid_until);
      const reopened = await t.request('POST', `/v1/listings/${listingId}/reopen`, { auth: acme.apiKey });
      assert.equal(reopened.status, 200, reopened.text);
      const withFormer = await post(application({}, { email: 'katherine@example.com' }), { key: former });
      assert.equal(withFormer.status, 201, withFormer.text);
      secret = rotated.body.secret;
      // A delivery id from two days ago: forgotten when the next application arrives (its timestamp would be refused anyway).
      const stale = {
        organization_id: acme.organizationId,
        delivery_id: 'msg_stale',
        body_sha256: '0',
        application_id: 'app_stale',
        received_at: new Date(Date.now() - 2 * 86_400_000),
      };
      await t.database.db('hi_board_deliveries').insert(stale);
      const withNew = await post(application({ job: { jobId: listingId } }, { email: 'alan@example.com' }));
      assert.equal(withNew.status, 201, withNew.text);
      assert.equal((await t.database.db('hi_board_deliveries').where({ delivery_id: 'msg_stale' })).length, 0);
    });

    it("a board applicant's data is erased with their candidate id: the application and the resume beside it", async () => {
      const katherine = await post(application({}, { email: 'kj@example.com' }));
      assert.equal(katherine.status, 201, katherine.text);
      const candidate = katherine.body.profile_user_id;
      const erasure = await t.request('POST', `/v1/candidates/${candidate}/erasure`, { auth: acme.apiKey, body: {} });
      assert.equal(erasure.status, 202, erasure.text);
      await waitFor(async () => {
        const read = await t.request('GET', `/v1/candidates/${candidate}/erasures/${erasure.body.id}`, { auth: acme.apiKey });
        return read.body.status === 'succeeded' ? read.body : undefined;
      }, 'the erasure');
      assert.equal((await t.database.db('hi_board_applications').where({ email: 'kj@example.com' })).length, 0);
      assert.equal((await t.database.db('hi_profile_applications').where({ id: katherine.body.application_id })).length, 0);
    });
  });
});
