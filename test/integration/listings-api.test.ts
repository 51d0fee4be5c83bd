/**
 * The listings API of the standalone host (/v1/listings): create, read, update, close,
 * reopen, list with cursor pagination and filters, upsert by the ATS's external_id (20
 * concurrent upserts of one id leave one listing), and what closing means for candidates.
 */
import { strict as assert } from 'node:assert';
import { ADA, enableProfileApply, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';

const ORIGIN = 'https://careers.listings.example';

describe('listings API', function () {
  this.timeout(60_000);
  let t: TestHost;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  const as = (method: string, path: string, body?: unknown, auth = acme.apiKey) => t.request(method, path, { auth, body });

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme');
    globex = await t.createOrganization('Globex');
  });
  after(() => t?.close());

  it('creates, reads, updates, closes and reopens a listing', async () => {
    const created = await as('POST', '/v1/listings', {
      title: ' Nurse ',
      description: 'Night shifts',
      location: 'Lyon',
      questions: QUESTIONS,
      external_id: 'ats-1',
    });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.id, /^listing_/);
    assert.equal(created.body.object, 'listing');
    assert.equal(created.body.title, 'Nurse');
    assert.equal(created.body.status, 'open');
    assert.equal(created.body.external_id, 'ats-1');
    assert.equal(created.body.questions.length, 4);
    const id = created.body.id;
    assert.deepEqual((await as('GET', `/v1/listings/${id}`)).body, created.body);
    const updated = await as('PATCH', `/v1/listings/${id}`, { title: 'Senior nurse', location: null });
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.title, 'Senior nurse');
    assert.equal(updated.body.location, null);
    assert.equal(updated.body.description, 'Night shifts');
    const closed = await as('POST', `/v1/listings/${id}/close`);
    assert.equal(closed.body.status, 'closed');
    assert.equal((await as('POST', `/v1/listings/${id}/close`)).body.status, 'closed', 'idempotent');
    const reopened = await as('POST', `/v1/listings/${id}/reopen`);
    assert.equal(reopened.status, 200);
    assert.equal(reopened.body.status, 'open');
    const statusPatch = await as('PATCH', `/v1/listings/${id}`, { status: 'closed' });
    assert.equal(statusPatch.body.status, 'closed');
  });

  it('lists newest first with cursor pagination and filters status and external_id', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await as('POST', '/v1/listings', { title: `Role ${i}`, status: i % 2 ? 'closed' : 'open', external_id: `list-${i}` })).body.id);
    const page1 = await as('GET', '/v1/listings?limit=2');
    assert.equal(page1.body.object, 'list');
    assert.deepEqual(
      page1.body.data.map((l: { id: string }) => l.id),
      [ids[4], ids[3]],
    );
    assert.equal(page1.body.has_more, true);
    const page2 = await as('GET', `/v1/listings?limit=2&starting_after=${ids[3]}`);
    assert.deepEqual(
      page2.body.data.map((l: { id: string }) => l.id),
      [ids[2], ids[1]],
    );
    const closed = await as('GET', '/v1/listings?status=closed&limit=100');
    assert.ok(closed.body.data.every((l: { status: string }) => l.status === 'closed'));
    assert.ok(closed.body.data.some((l: { id: string }) => l.id === ids[1]));
    const byExternal = await as('GET', '/v1/listings?external_id=list-2');
    assert.deepEqual(
      byExternal.body.data.map((l: { id: string }) => l.id),
      [ids[2]],
    );
    assert.equal((await as('GET', '/v1/listings?limit=100', undefined, globex.apiKey)).body.data.length, 0);
  });

  it('upserts by external_id: 20 concurrent upserts of one id leave one listing', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        as('PUT', '/v1/listings/external/req-42', {
          title: `Welder v${i}`,
          questions: [{ key: 'certified', label: 'Certified?', type: 'boolean', required: true }],
        }),
      ),
    );
    assert.ok(
      results.every((r) => r.status === 200 || r.status === 201),
      results.map((r) => r.text).join('\n'),
    );
    assert.equal(results.filter((r) => r.status === 201).length, 1, 'exactly one created');
    assert.equal(new Set(results.map((r) => r.body.id)).size, 1, 'one listing id');
    assert.equal(
      await t.database
        .db('host_listings')
        .where({ organization_id: acme.organizationId, external_id: 'req-42' })
        .count({ n: '*' })
        .first()
        .then((r) => Number(r!.n)),
      1,
    );
    const again = await as('PUT', '/v1/listings/external/req-42', { title: 'Welder', status: 'closed' });
    assert.equal(again.status, 200);
    assert.equal(again.body.title, 'Welder');
    assert.equal(again.body.status, 'closed');
    assert.equal(again.body.external_id, 'req-42');
    // Another organization's external ids are its own.
    const theirs = await as('PUT', '/v1/listings/external/req-42', { title: 'Other' }, globex.apiKey);
    assert.equal(theirs.status, 201);
    assert.notEqual(theirs.body.id, again.body.id);
  });

  it('answers errors in the API error model', async () => {
    const cases: [string, string, unknown, number, string, string | undefined][] = [
      ['POST', '/v1/listings', {}, 400, 'parameter_missing', 'title'],
      ['POST', '/v1/listings', { title: '   ' }, 400, 'parameter_invalid', 'title'],
      [
        'POST',
        '/v1/listings',
        { title: 'x', questions: [{ key: 'a', label: 'A', type: 'select', required: true }] },
        400,
        'parameter_invalid',
        'questions.0.options',
      ],
      ['POST', '/v1/listings', { title: 'x', questions: [{ key: 'Bad Key', label: 'A', type: 'text' }] }, 400, 'parameter_invalid', 'questions.0.key'],
      [
        'POST',
        '/v1/listings',
        {
          title: 'x',
          questions: [
            { key: 'a', label: 'A', type: 'text' },
            { key: 'a', label: 'B', type: 'text' },
          ],
        },
        400,
        'parameter_invalid',
        'questions',
      ],
      ['POST', '/v1/listings', { title: 'x', salary: 1 }, 400, 'parameter_unknown', 'salary'],
      ['POST', '/v1/listings', { title: 'x', status: 'draft' }, 400, 'parameter_invalid', 'status'],
      ['POST', '/v1/listings', { title: 'x', external_id: 'list-0' }, 409, 'listing_exists', 'external_id'],
      ['GET', '/v1/listings/listing_nope', undefined, 404, 'resource_missing', undefined],
      ['GET', '/v1/listings?status=draft', undefined, 400, 'parameter_invalid', 'status'],
      ['PUT', '/v1/listings/external/has%20space', { title: 'x' }, 400, 'parameter_invalid', 'external_id'],
      // `.` and `..` fit the character rule, but a URL cannot address them (clients normalize them away).
      ['POST', '/v1/listings', { title: 'x', external_id: '.' }, 400, 'parameter_invalid', 'external_id'],
      ['POST', '/v1/listings', { title: 'x', external_id: '..' }, 400, 'parameter_invalid', 'external_id'],
    ];
    for (const [method, path, body, status, code, param] of cases) {
      const res = await as(method, path, body);
      assert.equal(res.status, status, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.error.code, code, `${method} ${path} ${JSON.stringify(body)}`);
      if (param) assert.equal(res.body.error.param, param, `${method} ${path} ${JSON.stringify(body)}`);
    }
    const mine = (await as('POST', '/v1/listings', { title: 'Mine' })).body.id;
    for (const [method, path] of [
      ['GET', `/v1/listings/${mine}`],
      ['PATCH', `/v1/listings/${mine}`],
      ['POST', `/v1/listings/${mine}/close`],
      ['POST', `/v1/listings/${mine}/reopen`],
    ] as const) {
      const res = await as(method, path, method === 'PATCH' ? { title: 'Stolen' } : undefined, globex.apiKey);
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    assert.equal((await as('GET', `/v1/listings/${mine}`)).body.title, 'Mine');
    const dotted = await as('PATCH', `/v1/listings/${mine}`, { external_id: '..' });
    assert.equal(dotted.status, 400, dotted.text);
    assert.equal(dotted.body.error.param, 'external_id');
    assert.equal((await t.request('GET', '/v1/listings')).status, 401);
  });

  it('a closed listing answers 410 on apply and leaves the public endpoint; changing questions keeps submitted applications whole', async () => {
    await enableProfileApply(t, acme.apiKey, [ORIGIN]);
    const listing = (await as('POST', '/v1/listings', { title: 'Engineer', questions: QUESTIONS, external_id: 'eng-7' })).body;
    const publicPath = `/v1/public/organizations/${acme.organizationId}/listings/${listing.id}`;
    assert.equal((await t.request('GET', publicPath)).status, 200);
    const run = await runConnect(t, { organizationId: acme.organizationId, listingId: listing.id, origin: ORIGIN, button: `Authorize as ${ADA.name}` });
    assert.equal(run.result?.message.type, 'profile-apply:authorized');
    const answers = { years_experience: 7, work_authorization: true, start_date: 'Immediately' };
    const applied = await as('POST', `/v1/opportunities/listings/${listing.id}/applications/profile`, {
      profile_user_id: ADA.id,
      answers,
      cover_letter: 'Hello',
    });
    assert.equal(applied.status, 201, applied.text);

    // Questions change: the submitted application keeps its answers, reads still work.
    const changed = await as('PATCH', `/v1/listings/${listing.id}`, {
      questions: [{ key: 'clearance', label: 'Security clearance', type: 'boolean', required: true }],
    });
    assert.equal(changed.status, 200, changed.text);
    const read = await as('GET', `/v1/opportunities/applications/${applied.body.application_id}`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body.answers, answers);
    const event = await waitFor(async () => (await as('GET', '/v1/events?type=application.submitted')).body.data[0], 'application.submitted');
    assert.equal(event.data.application_id, applied.body.application_id);
    assert.deepEqual(event.data.answers, answers);
    assert.equal(event.data.cover_letter, 'Hello');
    assert.equal(event.data.listing_id, listing.id);
    assert.equal(event.data.listing_external_id, 'eng-7');
    assert.ok(Array.isArray(event.data.imported_skills) && event.data.imported_skills.length > 0);
    assert.ok(Array.isArray(event.data.imported_credentials));
    assert.ok(event.data.experience_summary && typeof event.data.profile_url === 'string');

    await as('POST', `/v1/listings/${listing.id}/close`);
    assert.equal((await t.request('GET', publicPath)).status, 404);
    const refused = await as('POST', `/v1/opportunities/listings/${listing.id}/applications/profile`, {
      profile_user_id: ADA.id,
      answers: { clearance: true },
    });
    assert.equal(refused.status, 410, refused.text);
    assert.equal(refused.body.error.code, 'listing_closed');
    await as('POST', `/v1/listings/${listing.id}/reopen`);
    assert.equal((await t.request('GET', publicPath)).status, 200);
  });
});
