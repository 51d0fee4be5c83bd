/**
 * POST /v1/opportunities/listings/{listing_id}/applications/profile: every rule of the
 * validation matrix, the order of refusals, duplicates, Idempotency-Key, 20 concurrent
 * submits, reads with cursor pagination, and another organization's ids.
 */
import { strict as assert } from 'node:assert';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { ADA, ALAN, enableProfileApply, GRACE, KATHERINE, licenseProfileApply, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';

const ORIGIN = 'https://careers.acme.example';
const VALID = { years_experience: 7, work_authorization: true };

describe('applications: submitting a profile application', function () {
  this.timeout(60_000);
  let t: TestHost;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  let listingId: string;
  let tokens: Record<string, string>;
  const apply = (listing: string, body: unknown, auth = acme.apiKey, headers: Record<string, string> = {}) =>
    t.request('POST', `/v1/opportunities/listings/${listing}/applications/profile`, { auth, body, headers });

  before(async () => {
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme');
    globex = await t.createOrganization('Globex');
    listingId = (await t.host.listings.create({ organizationId: acme.organizationId, title: 'Engineer', questions: QUESTIONS })).id;
    await enableProfileApply(t, acme.apiKey, [ORIGIN]);
    tokens = {};
    for (const candidate of [ADA, GRACE, ALAN]) {
      const run = await runConnect(t, { organizationId: acme.organizationId, listingId, origin: ORIGIN, button: `Authorize as ${candidate.name}` });
      tokens[candidate.id] = run.result!.message.candidate_token;
    }
    await waitFor(async () => Number((await t.database.db('hi_profile_snapshots').count({ n: '*' }).first())?.n ?? 0) >= 3 || undefined, 'three imports');
  });
  after(() => t?.close());

  describe('validation matrix (400, nothing written)', () => {
    const cases: [string, unknown, string, string][] = [
      ['profile_user_id missing', { answers: VALID }, 'parameter_missing', 'profile_user_id'],
      ['profile_user_id without usr_', { profile_user_id: 'abc', answers: VALID }, 'parameter_invalid', 'profile_user_id'],
      ['profile_user_id not a string', { profile_user_id: 42, answers: VALID }, 'parameter_invalid', 'profile_user_id'],
      ['cover_letter not a string', { profile_user_id: ADA.id, cover_letter: 5, answers: VALID }, 'parameter_invalid', 'cover_letter'],
      ['cover_letter too long', { profile_user_id: ADA.id, cover_letter: 'x'.repeat(10_001), answers: VALID }, 'parameter_invalid', 'cover_letter'],
      ['answers not an object', { profile_user_id: ADA.id, answers: [1] }, 'parameter_invalid', 'answers'],
      ['unknown top-level field', { profile_user_id: ADA.id, answers: VALID, resume: 'x' }, 'parameter_unknown', 'resume'],
      ['required number missing', { profile_user_id: ADA.id, answers: { work_authorization: true } }, 'parameter_missing', 'answers.years_experience'],
      ['required boolean missing', { profile_user_id: ADA.id, answers: { years_experience: 3 } }, 'parameter_missing', 'answers.work_authorization'],
      ['no answers at all', { profile_user_id: ADA.id }, 'parameter_missing', 'answers.years_experience'],
      [
        'null for a required answer',
        { profile_user_id: ADA.id, answers: { ...VALID, years_experience: null } },
        'parameter_missing',
        'answers.years_experience',
      ],
      ['number given as string', { profile_user_id: ADA.id, answers: { ...VALID, years_experience: '7' } }, 'parameter_invalid', 'answers.years_experience'],
      [
        'boolean given as string',
        { profile_user_id: ADA.id, answers: { ...VALID, work_authorization: 'yes' } },
        'parameter_invalid',
        'answers.work_authorization',
      ],
      ['boolean given as number', { profile_user_id: ADA.id, answers: { ...VALID, work_authorization: 1 } }, 'parameter_invalid', 'answers.work_authorization'],
      ['select value not an option', { profile_user_id: ADA.id, answers: { ...VALID, start_date: 'Tomorrow' } }, 'parameter_invalid', 'answers.start_date'],
      ['select value of another type', { profile_user_id: ADA.id, answers: { ...VALID, start_date: 1 } }, 'parameter_invalid', 'answers.start_date'],
      ['text given as number', { profile_user_id: ADA.id, answers: { ...VALID, portfolio: 3 } }, 'parameter_invalid', 'answers.portfolio'],
      ['text too long', { profile_user_id: ADA.id, answers: { ...VALID, portfolio: 'x'.repeat(5001) } }, 'parameter_invalid', 'answers.portfolio'],
      ['unknown answer key', { profile_user_id: ADA.id, answers: { ...VALID, salary: 100 } }, 'parameter_unknown', 'answers.salary'],
    ];
    for (const [name, body, code, param] of cases) {
      it(name, async () => {
        const response = await apply(listingId, body);
        assert.equal(response.status, 400, response.text);
        assert.equal(response.body.error.code, code, response.text);
        assert.equal(response.body.error.param, param);
        assert.equal((await t.database.db('hi_profile_applications')).length, 0);
      });
    }

    it('a JSON body of another type is 415, malformed JSON 400', async () => {
      const r1 = await t.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
        auth: acme.apiKey,
        rawBody: 'profile_user_id=usr_x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(r1.status, 415);
      const r2 = await t.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
        auth: acme.apiKey,
        rawBody: '{',
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(r2.status, 400);
    });
  });

  describe('refusals', () => {
    it('needs a credential: 401 without, 401 for a forged candidate token', async () => {
      assert.equal(
        (await t.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, { body: { profile_user_id: ADA.id, answers: VALID } })).status,
        401,
      );
      const forged = await apply(listingId, { profile_user_id: ADA.id, answers: VALID }, `hic_${Buffer.from('{"v":1}').toString('base64url')}.AAAA`);
      assert.equal(forged.status, 401);
      assert.equal(forged.body.error.code, 'invalid_candidate_token');
    });

    it("another organization's listing, or no listing, is 404", async () => {
      const other = await apply(listingId, { profile_user_id: ADA.id, answers: VALID }, globex.apiKey);
      assert.equal(other.status, 404);
      assert.equal(other.body.error.code, 'resource_missing');
      assert.equal((await apply('listing_doesnotexist', { profile_user_id: ADA.id, answers: VALID })).status, 404);
    });

    it('a closed listing is 410 listing_closed', async () => {
      const closed = await t.host.listings.create({ organizationId: acme.organizationId, title: 'Closed', questions: [], status: 'closed' });
      const response = await apply(closed.id, { profile_user_id: ADA.id, answers: {} });
      assert.equal(response.status, 410);
      assert.equal(response.body.error.code, 'listing_closed');
    });

    it('an organization without profile apply enabled is 403 integration_disabled', async () => {
      const listing = await t.host.listings.create({ organizationId: globex.organizationId, title: 'Globex role', questions: [] });
      const response = await apply(listing.id, { profile_user_id: ADA.id, answers: {} }, globex.apiKey);
      assert.equal(response.status, 403);
      assert.equal(response.body.error.code, 'integration_disabled');
    });

    it('without the profile.accept_application license, every way in says so and nothing is written', async () => {
      const initech = await t.createOrganization('Initech');
      const listing = await t.host.listings.create({ organizationId: initech.organizationId, title: 'Initech role', questions: [] });
      const settings = await t.request('PATCH', '/v1/organization/settings', {
        auth: initech.apiKey,
        body: { profile_apply: { enabled: true, allowed_origins: [ORIGIN] } },
      });
      assert.equal(settings.status, 200, settings.text);

      const refused = await apply(listing.id, { profile_user_id: ADA.id, answers: {} }, initech.apiKey);
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body.error.code, 'license_required');
      assert.equal(refused.body.error.action_key, 'profile.accept_application');
      // The widget's read and the popup agree with the endpoint.
      assert.equal((await t.request('GET', `/v1/public/organizations/${initech.organizationId}/listings/${listing.id}`)).status, 404);
      const query = new URLSearchParams({ organization_id: initech.organizationId, listing_id: listing.id, origin: ORIGIN });
      const popup = await t.request('GET', `/v1/connect/profile?${query}`);
      assert.equal(popup.status, 200);
      assert.match(popup.text, /license_required/);
      assert.equal((await t.database.db('hi_profile_applications').where({ organization_id: initech.organizationId })).length, 0);

      // Licensed, the endpoint goes on to the next check; deactivated, it refuses again at once.
      await licenseProfileApply(t, initech.apiKey);
      const licensed = await apply(listing.id, { profile_user_id: KATHERINE.id, answers: {} }, initech.apiKey);
      assert.equal(licensed.body.error?.code, 'profile_not_authorized', licensed.text);
      assert.equal((await t.request('GET', `/v1/public/organizations/${initech.organizationId}/listings/${listing.id}`)).status, 200);
      const off = await t.request('POST', '/v1/integrations/licenses/profile.accept_application/deactivate', { auth: initech.apiKey });
      assert.equal(off.status, 200, off.text);
      const again = await apply(listing.id, { profile_user_id: KATHERINE.id, answers: {} }, initech.apiKey);
      assert.equal(again.body.error?.code, 'license_required', again.text);
    });

    it('a candidate who never authorized the organization is 403 profile_not_authorized', async () => {
      const response = await apply(listingId, { profile_user_id: KATHERINE.id, answers: VALID });
      assert.equal(response.status, 403);
      assert.equal(response.body.error.code, 'profile_not_authorized');
    });

    it('a candidate token for another listing is 403', async () => {
      const otherListing = await t.host.listings.create({ organizationId: acme.organizationId, title: 'Other', questions: [] });
      const response = await apply(otherListing.id, { profile_user_id: ADA.id, answers: {} }, tokens[ADA.id]);
      assert.equal(response.status, 403);
      assert.equal(response.body.error.code, 'candidate_session_mismatch');
    });
  });

  describe('duplicates and retries', () => {
    it('a second submit is 409 duplicate_application naming the first', async () => {
      const first = await apply(listingId, { profile_user_id: GRACE.id, answers: VALID });
      assert.equal(first.status, 201, first.text);
      const second = await apply(listingId, { profile_user_id: GRACE.id, answers: { ...VALID, years_experience: 8 } }, tokens[GRACE.id]);
      assert.equal(second.status, 409);
      assert.equal(second.body.error.code, 'duplicate_application');
      assert.equal(second.body.error.application_id, first.body.application_id);
    });

    it('Idempotency-Key: same key and body replay; another body is refused', async () => {
      const listing = await t.host.listings.create({ organizationId: acme.organizationId, title: 'Idempotent', questions: [] });
      const headers = { 'Idempotency-Key': 'apply-alan-1' };
      const first = await apply(listing.id, { profile_user_id: ALAN.id, answers: {} }, acme.apiKey, headers);
      assert.equal(first.status, 201, first.text);
      const replay = await apply(listing.id, { profile_user_id: ALAN.id, answers: {} }, acme.apiKey, headers);
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.body, first.body);
      const changed = await apply(listing.id, { profile_user_id: ALAN.id, cover_letter: 'changed', answers: {} }, acme.apiKey, headers);
      assert.equal(changed.status, 409);
      assert.equal(changed.body.error.code, 'idempotency_key_reused');
      assert.equal((await t.database.db('hi_profile_applications').where({ listing_id: listing.id })).length, 1);
    });

    it('20 concurrent submits of one candidate to one listing make exactly one application', async () => {
      const listing = await t.host.listings.create({ organizationId: acme.organizationId, title: 'Race', questions: [] });
      const responses = await Promise.all(Array.from({ length: 20 }, () => apply(listing.id, { profile_user_id: ADA.id, answers: {} })));
      const statuses = responses.map((r) => r.status).sort();
      assert.deepEqual(statuses, [201, ...Array(19).fill(409)], statuses.join(','));
      const created = responses.find((r) => r.status === 201)!;
      for (const r of responses.filter((x) => x.status === 409)) assert.equal(r.body.error.application_id, created.body.application_id);
      assert.equal((await t.database.db('hi_profile_applications').where({ listing_id: listing.id })).length, 1);
      assert.equal((await t.database.db('hi_outbox').where({ queue: 'pipeline-delivery', job_id: `deliver-${created.body.application_id}` })).length, 1);
      await waitFor(
        async () => (await t.host.pipeline.listForOrganization(acme.organizationId)).find((e) => e.applicationId === created.body.application_id),
        'delivery',
      );
      assert.equal((await t.host.pipeline.listForOrganization(acme.organizationId)).filter((e) => e.listingId === listing.id).length, 1);
    });
  });

  describe('reads', () => {
    let ids: string[];
    let readListing: string;

    before(async () => {
      readListing = (await t.host.listings.create({ organizationId: acme.organizationId, title: 'Reads', questions: [] })).id;
      ids = [];
      for (const candidate of [ADA, GRACE, ALAN]) {
        const response = await apply(readListing, { profile_user_id: candidate.id, cover_letter: `I am ${candidate.name}`, answers: {} });
        assert.equal(response.status, 201, response.text);
        ids.push(response.body.application_id);
      }
    });

    it('GET one application; another organization gets 404', async () => {
      const mine = await t.request('GET', `/v1/opportunities/applications/${ids[0]}`, { auth: acme.apiKey });
      assert.equal(mine.status, 200);
      assert.equal(mine.body.object, 'application');
      assert.equal(mine.body.application_id, ids[0]);
      assert.equal(mine.body.cover_letter, 'I am Ada Lovelace');
      assert.equal(mine.body.candidate.name, 'Ada Lovelace');
      assert.equal((await t.request('GET', `/v1/opportunities/applications/${ids[0]}`, { auth: globex.apiKey })).status, 404);
    });

    it('lists newest first with limit and starting_after', async () => {
      const path = `/v1/opportunities/listings/${readListing}/applications`;
      const page1 = await t.request('GET', `${path}?limit=2`, { auth: acme.apiKey });
      assert.equal(page1.status, 200, page1.text);
      assert.equal(page1.body.object, 'list');
      assert.deepEqual(
        page1.body.data.map((a: { application_id: string }) => a.application_id),
        [ids[2], ids[1]],
      );
      assert.equal(page1.body.has_more, true);
      const page2 = await t.request('GET', `${path}?limit=2&starting_after=${ids[1]}`, { auth: acme.apiKey });
      assert.deepEqual(
        page2.body.data.map((a: { application_id: string }) => a.application_id),
        [ids[0]],
      );
      assert.equal(page2.body.has_more, false);
      assert.equal((await t.request('GET', `${path}?limit=0`, { auth: acme.apiKey })).status, 400);
      assert.equal((await t.request('GET', `${path}?starting_after=app_nope`, { auth: acme.apiKey })).status, 404);
      assert.equal((await t.request('GET', path, { auth: globex.apiKey })).status, 404);
    });
  });
});
