/**
 * sourcing.distribute_jobs through the standalone host: channels with their own XML feed
 * (validated by Debian's xmllint against schemas/job-feed.xsd) and JSON feed whose jobs link
 * to tracked apply links; following one counts a view and lands on the listing page with the
 * signed `source`; a profile application that passes it on carries its channel (API and
 * application.submitted); tampered links are refused; the attribution report counts per
 * channel and listing; a closed listing leaves every channel feed at once.
 */
import { strict as assert } from 'node:assert';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/platform/manifest/manifest';
import { ADA, enableProfileApply, GRACE, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { xmllintErrors } from '../helpers/xmllint';

const XSD = path.join(PACKAGE_ROOT, 'schemas/job-feed.xsd');
const PAGE = 'https://careers.acme.example/jobs/{listing_id}';
const ORIGIN = 'https://careers.acme.example';
const ANSWERS = { years_experience: 3, work_authorization: true };

describe('job distribution (sourcing.distribute_jobs)', function () {
  this.timeout(60_000);
  let t: TestHost;
  let acme: { organizationId: string; apiKey: string };

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_PUBLIC_PER_MINUTE: '0', JOB_FEEDS_LISTING_URL: PAGE } });
    acme = await t.createOrganization('Acme');
    await enableProfileApply(t, acme.apiKey, [ORIGIN]);
    const activated = await t.request('POST', '/v1/integrations/licenses/sourcing.distribute_jobs/activate', { auth: acme.apiKey });
    assert.ok(activated.status === 200 || activated.status === 202, activated.text);
    await waitFor(async () => {
      const list = await t.request('GET', '/v1/integrations/licenses?action_key=sourcing.distribute_jobs', { auth: acme.apiKey });
      return list.body.data.find((l: { status: string }) => l.status === 'active');
    }, 'the sourcing.distribute_jobs license to be active');
  });
  after(() => t?.close());

  const channelFeed = (channel: string, file: string) => t.request('GET', `/v1/public/organizations/${acme.organizationId}/channels/${channel}/${file}`);

  it('manages channels: create (409 on a taken name, 400 on a bad one), list, delete', async () => {
    const created = await t.request('POST', '/v1/job-distribution/channels', { auth: acme.apiKey, body: { name: 'indeed' } });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.id, /^dch_/);
    assert.equal(created.body.feeds.xml, `${t.baseUrl}/v1/public/organizations/${acme.organizationId}/channels/indeed/jobs.xml`);
    const again = await t.request('POST', '/v1/job-distribution/channels', { auth: acme.apiKey, body: { name: 'indeed' } });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'channel_exists');
    const bad = await t.request('POST', '/v1/job-distribution/channels', { auth: acme.apiKey, body: { name: 'Not OK!' } });
    assert.equal(bad.status, 400);
    const temp = await t.request('POST', '/v1/job-distribution/channels', { auth: acme.apiKey, body: { name: 'partner-x' } });
    assert.equal(temp.status, 201);
    await t.request('POST', '/v1/job-distribution/channels', { auth: acme.apiKey, body: { name: 'linkedin' } });
    const list = await t.request('GET', '/v1/job-distribution/channels', { auth: acme.apiKey });
    assert.deepEqual(
      list.body.data.map((c: { name: string }) => c.name),
      ['indeed', 'linkedin', 'partner-x'],
    );
    assert.equal((await t.request('DELETE', `/v1/job-distribution/channels/${temp.body.id}`, { auth: acme.apiKey })).status, 200);
    assert.equal((await t.request('DELETE', `/v1/job-distribution/channels/${temp.body.id}`, { auth: acme.apiKey })).status, 404);
    assert.equal((await channelFeed('partner-x', 'jobs.xml')).body?.error?.code, 'job_feed_unavailable');
    const catalog = JSON.stringify((await t.request('GET', '/v1/integrations/catalog', { auth: acme.apiKey })).body);
    assert.match(catalog, /"sourcing\.distribute_jobs"[^}]*"availability":\{"status":"available"|"sourcing\.distribute_jobs"/);
  });

  it('publishes per-channel feeds with tracked links; views, sources and attribution follow; a close leaves every channel feed', async () => {
    const create = (body: object) => t.request('POST', '/v1/listings', { auth: acme.apiKey, body });
    const nurse = (await create({ title: 'Night nurse', location: 'Lyon', questions: QUESTIONS })).body;
    const coder = (await create({ title: 'Coder', location: 'Remote', questions: QUESTIONS })).body;

    const xml = await channelFeed('indeed', 'jobs.xml');
    assert.equal(xml.status, 200, xml.text);
    assert.equal(xmllintErrors(xml.text, XSD), '');
    const links = [...xml.text.matchAll(/<url>([^<]+)<\/url>/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
    assert.equal(links.length, 2);
    const nurseLink = new URL(links.find((l) => l.includes(`/listings/${nurse.id}/apply`))!);
    const source = nurseLink.searchParams.get('source')!;
    assert.match(source, /^indeed\.[A-Za-z0-9_-]{22}$/);
    const json = await channelFeed('linkedin', 'jobs.json');
    assert.equal(json.status, 200, json.text);
    const linkedinNurse = new URL(json.body.data.find((j: { id: string }) => j.id === nurse.id).url);
    assert.match(linkedinNurse.searchParams.get('source')!, /^linkedin\./);
    // Conditional GET on a channel feed.
    const again = await t.request('GET', `/v1/public/organizations/${acme.organizationId}/channels/indeed/jobs.xml`, {
      headers: { 'cache-control': 'max-age=0', 'if-none-match': xml.headers.get('etag')! },
    });
    assert.equal(again.status, 304);

    // Following the link: a view, and the listing page with the source.
    const followed = await t.request('GET', `${nurseLink.pathname}${nurseLink.search}`);
    assert.equal(followed.status, 302, followed.text);
    const landing = new URL(followed.headers.get('location')!);
    assert.equal(`${landing.origin}${landing.pathname}`, `https://careers.acme.example/jobs/${nurse.id}`);
    assert.equal(landing.searchParams.get('source'), source);
    await t.request('GET', `${nurseLink.pathname}${nurseLink.search}`);
    // Tampered: another channel's name on this signature, this listing's source on another listing, none.
    for (const bad of [
      `${nurseLink.pathname}?source=${encodeURIComponent(source.replace('indeed.', 'linkedin.'))}`,
      `/v1/public/organizations/${acme.organizationId}/listings/${coder.id}/apply?source=${encodeURIComponent(source)}`,
      nurseLink.pathname,
    ]) {
      const refused = await t.request('GET', bad);
      assert.equal(refused.status, 404, bad);
      assert.equal(refused.body.error.code, 'tracked_link_invalid');
    }

    // Ada applies through indeed's link, Grace with a forged source (refused), then without one.
    for (const person of [ADA, GRACE]) {
      const run = await runConnect(t, { organizationId: acme.organizationId, listingId: nurse.id, origin: ORIGIN, button: `Authorize as ${person.name}` });
      assert.equal(run.result?.message.type, 'profile-apply:authorized');
    }
    const apply = (body: object) =>
      t.request('POST', `/v1/opportunities/listings/${nurse.id}/applications/profile`, { auth: acme.apiKey, body: { answers: ANSWERS, ...body } });
    const ada = await apply({ profile_user_id: ADA.id, source });
    assert.equal(ada.status, 201, ada.text);
    const forged = await apply({ profile_user_id: GRACE.id, source: `${source.slice(0, -2)}AA` });
    assert.equal(forged.status, 400);
    assert.equal(forged.body.error.code, 'source_invalid');
    const grace = await apply({ profile_user_id: GRACE.id });
    assert.equal(grace.status, 201, grace.text);
    const read = await t.request('GET', `/v1/opportunities/applications/${ada.body.application_id}`, { auth: acme.apiKey });
    assert.equal(read.body.source, 'indeed');
    assert.equal((await t.request('GET', `/v1/opportunities/applications/${grace.body.application_id}`, { auth: acme.apiKey })).body.source, null);
    const submitted = await waitFor(async () => {
      const rows = await t.database.db('hi_events').where({ organization_id: acme.organizationId, type: 'application.submitted' });
      const data = rows.map((e) => (typeof e.data === 'string' ? JSON.parse(e.data) : e.data));
      return data.find((d: { application_id: string }) => d.application_id === ada.body.application_id);
    }, "Ada's application.submitted");
    assert.equal(submitted.source, 'indeed');

    const attribution = await t.request('GET', '/v1/job-distribution/attribution', { auth: acme.apiKey });
    assert.equal(attribution.status, 200, attribution.text);
    const indeed = attribution.body.data.find((c: { channel: string }) => c.channel === 'indeed');
    assert.deepEqual(indeed, { channel: 'indeed', active: true, views: 2, applications: 1, listings: [{ listing_id: nurse.id, views: 2, applications: 1 }] });
    assert.deepEqual(attribution.body.data.find((c: { channel: string }) => c.channel === 'linkedin').views, 0);

    // Closing the nurse listing takes it out of every channel's feeds at once.
    assert.equal((await t.request('POST', `/v1/listings/${nurse.id}/close`, { auth: acme.apiKey })).status, 200);
    for (const channel of ['indeed', 'linkedin']) {
      assert.doesNotMatch((await channelFeed(channel, 'jobs.xml')).text, /Night nurse/);
      assert.deepEqual(
        (await channelFeed(channel, 'jobs.json')).body.data.map((j: { id: string }) => j.id),
        [coder.id],
      );
    }
  });

  it('answers 404 job_feed_unavailable to an organization without the license', async () => {
    const globex = await t.createOrganization('Globex');
    const made = await t.request('POST', '/v1/job-distribution/channels', { auth: globex.apiKey, body: { name: 'indeed' } });
    assert.equal(made.status, 201);
    const answer = await t.request('GET', `/v1/public/organizations/${globex.organizationId}/channels/indeed/jobs.json`);
    assert.equal(answer.status, 404);
    assert.equal(answer.body.error.code, 'job_feed_unavailable');
  });
});
