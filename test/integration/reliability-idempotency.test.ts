/**
 * Idempotency that survives failure. A request answered 5xx, or cut off with its process,
 * may be retried with its `Idempotency-Key`: the retry runs again, or replays what the
 * first attempt created, and never answers 409 `idempotency_key_in_use` once the first
 * attempt is finished or dead. Failures are injected with database triggers that fail one
 * statement (a sequence arms them: sequences are not rolled back with the failed statement).
 */
import { strict as assert } from 'node:assert';
import { requestHash } from '../../src/platform/http/idempotency';
import { enableProfileApply, GRACE, ADA, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';

const ORIGIN = 'https://jobs.idempotency.example';
const ANSWERS = { years_experience: 2, work_authorization: true };

describe('reliability: idempotent retries after failures', function () {
  this.timeout(60_000);
  let t: TestHost;
  let organizationId: string;
  let apiKey: string;

  /** The next statement the named trigger guards fails once. */
  const failNext = (sequence: 'hi_test_fail_complete' | 'hi_test_fail_apply') => t.database.db.raw(`select setval('${sequence}', 1, false)`);

  before(async () => {
    t = await startTestHost();
    ({ organizationId, apiKey } = await t.createOrganization('Idempotency Org'));
    await enableProfileApply(t, apiKey, [ORIGIN]);
    const listing = await t.host.listings.create({ organizationId, title: 'Seed', questions: QUESTIONS });
    for (const candidate of [ADA, GRACE]) {
      const run = await runConnect(t, { organizationId, listingId: listing.id, origin: ORIGIN, button: `Authorize as ${candidate.name}` });
      assert.equal(run.result?.message.type, 'profile-apply:authorized');
    }
    await waitFor(async () => (await t.database.db('hi_profile_snapshots').where({ organization_id: organizationId })).length === 2, 'the imports');
    const db = t.database.db;
    for (const sequence of ['hi_test_fail_complete', 'hi_test_fail_apply']) await db.raw(`create sequence ${sequence} start 100`);
    await db.raw(`create function hi_test_fail_once() returns trigger language plpgsql as $$
      begin
        if nextval(TG_ARGV[0]::regclass) = 1 then raise exception 'injected failure (%)', TG_ARGV[0]; end if;
        return new;
      end $$`);
    // Recording the answer fails: the application is created, its 201 is lost (500).
    await db.raw(`create trigger hi_test_fail_complete before update on hi_idempotency_keys for each row
      when (new.response_status is not null) execute function hi_test_fail_once('hi_test_fail_complete')`);
    // Creating the application fails: nothing is created (500).
    await db.raw(
      `create trigger hi_test_fail_apply before insert on hi_profile_applications for each row execute function hi_test_fail_once('hi_test_fail_apply')`,
    );
  });
  after(() => t?.close());

  const apply = async (listingId: string, candidate: string, key: string) =>
    t.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
      auth: apiKey,
      body: { profile_user_id: candidate, answers: ANSWERS },
      headers: { 'idempotency-key': key },
    });

  it('an application created by a request answered 500 replays as its 201 on a retry with the same key', async () => {
    const listing = await t.host.listings.create({ organizationId, title: 'Lost answer', questions: QUESTIONS });
    await failNext('hi_test_fail_complete');
    const first = await apply(listing.id, ADA.id, 'lost-answer-1');
    assert.equal(first.status, 500, first.text);
    const created = await t.database.db('hi_profile_applications').where({ listing_id: listing.id });
    assert.equal(created.length, 1, 'the first attempt created the application');
    const retry = await apply(listing.id, ADA.id, 'lost-answer-1');
    assert.equal(retry.status, 201, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(retry.body.application_id, created[0].id);
    assert.deepEqual(Object.keys(retry.body).sort(), [
      'application_id',
      'experience_summary',
      'imported_credentials',
      'imported_skills',
      'profile_url',
      'status',
    ]);
    // And from now on it is an ordinary replay.
    const again = await apply(listing.id, ADA.id, 'lost-answer-1');
    assert.equal(again.status, 201);
    assert.equal(again.body.application_id, created[0].id);
    assert.equal((await t.database.db('hi_profile_applications').where({ listing_id: listing.id })).length, 1);
  });

  it('a request answered 500 before it created anything runs again on a retry with its key', async () => {
    const listing = await t.host.listings.create({ organizationId, title: 'Failed insert', questions: QUESTIONS });
    await failNext('hi_test_fail_apply');
    const first = await apply(listing.id, GRACE.id, 'failed-insert-1');
    assert.equal(first.status, 500, first.text);
    assert.equal((await t.database.db('hi_profile_applications').where({ listing_id: listing.id })).length, 0);
    const retry = await apply(listing.id, GRACE.id, 'failed-insert-1');
    assert.equal(retry.status, 201, retry.text);
    assert.equal((await t.database.db('hi_profile_applications').where({ listing_id: listing.id })).length, 1);
  });

  it('a key held by a process that died is free once its lease lapsed; a live lease still answers 409 in use', async () => {
    const listing = await t.host.listings.create({ organizationId, title: 'Dead process', questions: QUESTIONS });
    const path = `/v1/opportunities/listings/${listing.id}/applications/profile`;
    const body = { profile_user_id: ADA.id, answers: ANSWERS };
    const scope = `org:${organizationId}`;
    const db = t.database.db;
    // What a killed API process leaves behind: a key begun seconds ago, never answered.
    await db('hi_idempotency_keys').insert({
      scope,
      key: 'dead-1',
      request_hash: requestHash('POST', path, body),
      created_at: new Date(),
      owner: 'a0a0a0a0a0a0:dead',
      locked_until: new Date(Date.now() - 1000),
    });
    const retry = await t.request('POST', path, { auth: apiKey, body, headers: { 'idempotency-key': 'dead-1' } });
    assert.equal(retry.status, 201, retry.text);
    // Another process still working on its request: the key is in use.
    await db('hi_idempotency_keys').insert({
      scope,
      key: 'live-1',
      request_hash: requestHash('POST', path, { ...body, profile_user_id: GRACE.id }),
      created_at: new Date(),
      owner: 'b1b1b1b1b1b1:live',
      locked_until: new Date(Date.now() + 10_000),
    });
    const busy = await t.request('POST', path, { auth: apiKey, body: { ...body, profile_user_id: GRACE.id }, headers: { 'idempotency-key': 'live-1' } });
    assert.equal(busy.status, 409, busy.text);
    assert.equal(busy.body.error.code, 'idempotency_key_in_use');
    // When to retry: by the time the holder's lease lapses (unless its heartbeat renews it).
    assert.ok([9, 10].includes(Number(busy.headers.get('retry-after'))), `Retry-After: ${busy.headers.get('retry-after')}`);
  });
});
