/**
 * job_boards.post_jobs through the standalone host: an organization holding the license
 * publishes its open listings as an XML feed (validated by Debian's xmllint against
 * schemas/job-feed.xsd), a JSON feed, a sitemap and per-listing JobPosting JSON-LD, with
 * ETag/Last-Modified and 304 on a conditional GET; closing a listing takes it out of every
 * feed at once; an unlicensed or unknown organization answers 404 job_feed_unavailable.
 */
import { strict as assert } from 'node:assert';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { xmllintErrors } from '../helpers/xmllint';

const XSD = path.join(PACKAGE_ROOT, 'schemas/job-feed.xsd');
const PAGE = 'https://careers.acme.example/jobs/{listing_id}';

describe('job feeds (job_boards.post_jobs)', function () {
  this.timeout(60_000);
  let t: TestHost;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  // Node's fetch adds `Cache-Control: no-cache` to a conditional request unless one is given; crawlers send none.
  const conditional = (headers?: Record<string, string>) => (headers ? { 'cache-control': 'max-age=0', ...headers } : undefined);
  const feed = (org: string, file: string, headers?: Record<string, string>) =>
    t.request('GET', `/v1/public/organizations/${org}/${file}`, { headers: conditional(headers) });

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PUBLIC_PER_MINUTE: '0', JOB_FEEDS_LISTING_URL: PAGE } });
    acme = await t.createOrganization('Acme & Care');
    globex = await t.createOrganization('Globex');
    const activated = await t.request('POST', '/v1/integrations/licenses/job_boards.post_jobs/activate', { auth: acme.apiKey });
    assert.ok(activated.status === 200 || activated.status === 202, activated.text);
    await waitFor(async () => {
      const list = await t.request('GET', '/v1/integrations/licenses?action_key=job_boards.post_jobs', { auth: acme.apiKey });
      return list.body.data.find((l: { status: string }) => l.status === 'active');
    }, 'the job_boards.post_jobs license to be active');
  });
  after(() => t?.close());

  it('shows job_boards.post_jobs as available in the catalog once licensed', async () => {
    const catalog = await t.request('GET', '/v1/integrations/catalog', { auth: acme.apiKey });
    assert.equal(catalog.status, 200, catalog.text);
    const entry = JSON.stringify(catalog.body).includes('job_boards.post_jobs');
    assert.ok(entry);
    const action = findAction(catalog.body, 'job_boards.post_jobs');
    assert.equal(action?.availability?.status, 'available', JSON.stringify(action));
  });

  it('publishes open listings in every feed, with validators, and a close removes them from all at once', async () => {
    const create = (body: object) => t.request('POST', '/v1/listings', { auth: acme.apiKey, body });
    const nurse = (await create({ title: 'Night nurse', description: 'Care for <patients> & families', location: 'Lyon', external_id: 'ats-1' })).body;
    const remote = (await create({ title: 'Remote coder', location: 'Remote - France' })).body;
    await create({ title: 'Old role', status: 'closed' });

    const xml = await feed(acme.organizationId, 'jobs.xml');
    assert.equal(xml.status, 200, xml.text);
    assert.match(xml.headers.get('content-type')!, /^application\/xml/);
    assert.equal(xmllintErrors(xml.text, XSD), '');
    assert.equal(xml.text.match(/<job>/g)?.length, 2);
    assert.match(xml.text, /<company>Acme &amp; Care<\/company>/);
    assert.match(xml.text, new RegExp(`<url>https://careers.acme.example/jobs/${nurse.id}</url>`));
    assert.doesNotMatch(xml.text, /Old role/);

    const json = await feed(acme.organizationId, 'jobs.json');
    assert.equal(json.status, 200, json.text);
    assert.deepEqual(json.body.data.map((j: { id: string }) => j.id).sort(), [nurse.id, remote.id].sort());
    const remotePosting = json.body.data.find((j: { id: string }) => j.id === remote.id).job_posting;
    assert.equal(remotePosting.jobLocationType, 'TELECOMMUTE');
    assert.equal(remotePosting.hiringOrganization.name, 'Acme & Care');

    const map = await feed(acme.organizationId, 'sitemap.xml');
    assert.equal(map.status, 200);
    assert.equal(xmllintErrors(map.text), '');
    assert.equal(map.text.match(/<loc>/g)?.length, 2);

    const ld = await t.request('GET', `/v1/public/organizations/${acme.organizationId}/listings/${nurse.id}/job-posting.jsonld`);
    assert.equal(ld.status, 200, ld.text);
    assert.match(ld.headers.get('content-type')!, /^application\/ld\+json/);
    for (const field of ['title', 'description', 'datePosted', 'validThrough', 'hiringOrganization', 'jobLocation', 'identifier'])
      assert.ok(ld.body[field] !== undefined, field);
    assert.equal(ld.body.identifier.value, 'ats-1');
    assert.equal(ld.body.directApply, true);

    // Conditional GETs: the same validators answer 304, with no body.
    const etag = xml.headers.get('etag')!;
    const lastModified = xml.headers.get('last-modified')!;
    assert.ok(etag && lastModified);
    const match = await feed(acme.organizationId, 'jobs.xml', { 'if-none-match': etag });
    assert.equal(match.status, 304, `${etag} ${match.headers.get('etag')} ${match.text.slice(0, 300)}`);
    const since = await feed(acme.organizationId, 'jobs.xml', { 'if-modified-since': lastModified });
    assert.equal(since.status, 304, `${lastModified} ${since.headers.get('last-modified')} ${since.headers.get('etag')} ${etag}`);
    const ldAgain = await t.request('GET', `/v1/public/organizations/${acme.organizationId}/listings/${nurse.id}/job-posting.jsonld`, {
      headers: conditional({ 'if-none-match': ld.headers.get('etag')! }),
    });
    assert.equal(ldAgain.status, 304);

    // Closing the nurse listing leaves every feed at once, and the old validators no longer match.
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // Last-Modified has one-second resolution.
    assert.equal((await t.request('POST', `/v1/listings/${nurse.id}/close`, { auth: acme.apiKey })).status, 200);
    const after = await feed(acme.organizationId, 'jobs.xml', { 'if-none-match': etag });
    assert.equal(after.status, 200);
    assert.doesNotMatch(after.text, /Night nurse/);
    assert.equal(xmllintErrors(after.text, XSD), '');
    assert.equal((await feed(acme.organizationId, 'jobs.xml', { 'if-modified-since': lastModified })).status, 200, 'a close moves Last-Modified');
    assert.deepEqual(
      (await feed(acme.organizationId, 'jobs.json')).body.data.map((j: { id: string }) => j.id),
      [remote.id],
    );
    assert.doesNotMatch((await feed(acme.organizationId, 'sitemap.xml')).text, new RegExp(nurse.id));
    const closed = await t.request('GET', `/v1/public/organizations/${acme.organizationId}/listings/${nurse.id}/job-posting.jsonld`);
    assert.equal(closed.status, 404);
  });

  it("answers 404 job_feed_unavailable to an unlicensed or unknown organization, and hides other organizations' listings", async () => {
    const globexListing = (await t.request('POST', '/v1/listings', { auth: globex.apiKey, body: { title: 'Welder' } })).body;
    for (const org of [globex.organizationId, 'org_doesnotexist', '%00', 'x'.repeat(100)]) {
      for (const file of ['jobs.xml', 'jobs.json', 'sitemap.xml']) {
        const answer = await feed(encodeURIComponent(org), file);
        assert.equal(answer.status, 404, `${org} ${file}: ${answer.text}`);
        if (org !== '%00') assert.equal(answer.body.error.code, 'job_feed_unavailable');
      }
    }
    // Acme's license does not publish Globex's listing under Acme's id.
    const cross = await t.request('GET', `/v1/public/organizations/${acme.organizationId}/listings/${globexListing.id}/job-posting.jsonld`);
    assert.equal(cross.status, 404);
    assert.equal(cross.body.error.code, 'resource_missing');
  });
});

/** The catalog entry of an action, wherever the catalog nests it. */
function findAction(node: unknown, key: string): any {
  if (!node || typeof node !== 'object') return undefined;
  if ((node as { key?: string }).key === key || (node as { action_key?: string }).action_key === key) return node;
  for (const value of Object.values(node)) {
    const found = findAction(value, key);
    if (found) return found;
  }
  return undefined;
}
