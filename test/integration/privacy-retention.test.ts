/**
 * Retention on a test clock: the operator runs the daily pass "as of" a later time, and
 * exactly the candidates due are erased (every store, through the erasure job): those who
 * authorized and never applied, after the organization's unfinished_authorizations_days;
 * applicants once every listing they applied to closed more than applications_days ago;
 * never one under a legal hold, never another organization's, never one whose listing is open,
 * never one whose application led to a hire ("unless hired"). The same pass prunes the audit
 * trail past AUDIT_RETENTION_DAYS, and every chain still verifies from its anchor, and the
 * action runs past ACTION_RUN_RETENTION_DAYS / ACTION_RUN_FAILED_RETENTION_DAYS (never one still
 * running, nor one an open record refers to).
 */
import { strict as assert } from 'node:assert';
import { ADA, ALAN, enableProfileApply, GRACE, KATHERINE, QUESTIONS, runConnect, waitFor } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { verifyChain } from '../../src/features/audit/domain/audit-chain';
import { KnexAuditRepository } from '../../src/features/audit/storage/audit-repository';
import { KnexActionRunRepository } from '../../src/features/action-runs/storage/knex-action-run-repository';

const ORIGIN = 'https://jobs.retention.example';
const DAY = 86_400_000;

describe('privacy: retention on a test clock', function () {
  this.timeout(120_000);
  let t: TestHost;
  let org: { organizationId: string; apiKey: string };
  let other: { organizationId: string; apiKey: string };
  let open: string;
  let closing: string;
  let otherListing: string;

  const connect = async (o: { organizationId: string }, listingId: string, who: { id: string; name: string }) => {
    const run = await runConnect(t, { organizationId: o.organizationId, listingId, origin: ORIGIN, button: `Authorize as ${who.name}` });
    assert.equal(run.result?.message.type, 'profile-apply:authorized');
    await waitFor(
      async () => (await t.database.db('hi_profile_snapshots').where({ organization_id: o.organizationId, profile_user_id: who.id }).first()) ?? undefined,
      `${who.name}'s import`,
    );
  };
  const apply = async (o: { apiKey: string }, listingId: string, who: { id: string }) => {
    const applied = await t.request('POST', `/v1/opportunities/listings/${listingId}/applications/profile`, {
      auth: o.apiKey,
      body: { profile_user_id: who.id, cover_letter: 'Hello', answers: { years_experience: 3, work_authorization: true } },
    });
    assert.equal(applied.status, 201, applied.text);
  };
  const holds = (o: { organizationId: string }, who: { id: string }) =>
    t.database.db('hi_profile_snapshots').where({ organization_id: o.organizationId, profile_user_id: who.id }).first();
  const run = async (asOf: Date) => {
    const response = await t.request('POST', '/v1/privacy/retention/run', { auth: t.operatorKey, body: { as_of: asOf.toISOString() } });
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const settled = () =>
    waitFor(async () => ((await t.database.db('hi_candidate_erasures').where({ status: 'pending' })).length === 0 ? true : undefined), 'erasures to finish');

  before(async () => {
    t = await startTestHost({
      env: { RATE_LIMIT_PER_MINUTE: '0', AUDIT_RETENTION_DAYS: '10', ACTION_RUN_RETENTION_DAYS: '20', ACTION_RUN_FAILED_RETENTION_DAYS: '40' },
    });
    org = await t.createOrganization('Retention Org');
    other = await t.createOrganization('Other Org');
    await enableProfileApply(t, org.apiKey, [ORIGIN]);
    await enableProfileApply(t, other.apiKey, [ORIGIN]);
    open = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Open role', questions: QUESTIONS })).id;
    closing = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Closing role', questions: QUESTIONS })).id;
    otherListing = (await t.host.listings.create({ organizationId: other.organizationId, title: 'Elsewhere', questions: QUESTIONS })).id;
    await connect(org, open, ADA); // never applies
    await connect(org, open, GRACE); // never applies, but on hold
    await connect(org, closing, ALAN);
    await apply(org, closing, ALAN); // the only listing closes
    await connect(org, open, KATHERINE);
    await apply(org, open, KATHERINE); // open listing: kept
    await connect(other, otherListing, ADA); // the other organization's Ada never applies either
  });
  after(() => t?.close());

  it('uses documented defaults until the organization sets its own; null restores a default', async () => {
    const read = await t.request('GET', '/v1/privacy/retention', { auth: org.apiKey });
    assert.deepEqual([read.body.applications_days, read.body.unfinished_authorizations_days], [365, 30]);
    const set = await t.request('PATCH', '/v1/privacy/retention', { auth: org.apiKey, body: { applications_days: 10, unfinished_authorizations_days: 5 } });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual([set.body.applications_days, set.body.unfinished_authorizations_days], [10, 5]);
    assert.equal((await t.request('PATCH', '/v1/privacy/retention', { auth: org.apiKey, body: { applications_days: 0 } })).status, 400);
    assert.equal((await t.request('POST', '/v1/privacy/retention/run', { auth: org.apiKey, body: {} })).status, 403);
  });

  it('erases exactly what is due at each time, and nothing on hold', async () => {
    const hold = await t.request('POST', `/v1/candidates/${GRACE.id}/legal_holds`, { auth: org.apiKey, body: { reason: 'Pending dispute' } });
    assert.equal(hold.status, 201);
    const now = Date.now();

    // Four days on: nothing is due yet.
    let report = await run(new Date(now + 4 * DAY));
    assert.deepEqual(report.erasures_started, { applications: 0, unfinished_authorizations: 0 });

    // Six days on: the organization's unfinished authorizations (5 days) are due; Grace is held; the other organization keeps 30 days.
    report = await run(new Date(now + 6 * DAY));
    assert.deepEqual(report.erasures_started, { applications: 0, unfinished_authorizations: 1 });
    assert.equal(report.held, 1);
    await settled();
    assert.equal(await holds(org, ADA), undefined);
    assert.ok(await holds(org, GRACE));
    assert.ok(await holds(other, ADA), "the other organization's Ada is not due");
    assert.ok(await holds(org, ALAN));

    // The closing listing closes; 11 days after its close, Alan is due; Katherine's listing is open.
    await t.host.listings.update(org.organizationId, closing, { status: 'closed' });
    report = await run(new Date(Date.now() + 9 * DAY));
    assert.deepEqual(report.erasures_started, { applications: 0, unfinished_authorizations: 0 });
    report = await run(new Date(Date.now() + 11 * DAY));
    assert.deepEqual(report.erasures_started, { applications: 1, unfinished_authorizations: 0 });
    await settled();
    assert.equal(await holds(org, ALAN), undefined);
    assert.equal((await t.database.db('hi_profile_applications').where({ organization_id: org.organizationId, profile_user_id: ALAN.id })).length, 0);
    assert.ok(await holds(org, KATHERINE));
    const erasure = await t.database.db('hi_candidate_erasures').where({ organization_id: org.organizationId, reason: 'retention' });
    assert.equal(erasure.length, 2);

    // The pass is counted in metrics.
    const metrics = await t.request('GET', '/metrics', { auth: t.operatorKey });
    assert.match(metrics.text, /hiring_integrations_retention_total\{rule="unfinished_authorizations",outcome="erasure_started"\} 1/);
    assert.match(metrics.text, /hiring_integrations_retention_total\{rule="unfinished_authorizations",outcome="held"\} \d/);
  });

  it('keeps a candidate whose application led to a hire; prunes the audit trail and it still verifies', async () => {
    const application = await t.database.db('hi_profile_applications').where({ organization_id: org.organizationId, profile_user_id: KATHERINE.id }).first();
    const missing = await t.request('POST', `/v1/candidates/${KATHERINE.id}/hires`, { auth: org.apiKey, body: { application_id: 'app_missing' } });
    assert.equal(missing.status, 404, missing.text);
    const foreign = await t.request('POST', `/v1/candidates/${KATHERINE.id}/hires`, { auth: other.apiKey, body: { application_id: application.id } });
    assert.equal(foreign.status, 404, "another organization's application");
    const hired = await t.request('POST', `/v1/candidates/${KATHERINE.id}/hires`, {
      auth: org.apiKey,
      body: { application_id: application.id, hired_at: '2026-11-20T09:00:00Z' },
    });
    assert.equal(hired.status, 201, hired.text);
    assert.deepEqual([hired.body.object, hired.body.listing_id, hired.body.hired_at], ['candidate_hire', open, '2026-11-20T09:00:00.000Z']);
    const again = await t.request('POST', `/v1/candidates/${KATHERINE.id}/hires`, { auth: org.apiKey, body: { application_id: application.id } });
    assert.equal(again.body.id, hired.body.id, 'recording it again answers the first record');

    // Her listing closes; 25 days on (the other organization's 30 days not yet) she is due by the applications rule, and kept.
    await t.host.listings.update(org.organizationId, open, { status: 'closed' });
    const report = await run(new Date(Date.now() + 25 * DAY));
    assert.deepEqual(report.erasures_started, { applications: 0, unfinished_authorizations: 0 });
    assert.equal(report.hired_kept, 1);
    await settled();
    assert.ok(await holds(org, KATHERINE));
    assert.equal((await t.database.db('hi_profile_applications').where({ organization_id: org.organizationId, profile_user_id: KATHERINE.id })).length, 1);
    const metrics = await t.request('GET', '/metrics', { auth: t.operatorKey });
    assert.match(metrics.text, /hiring_integrations_retention_total\{rule="applications",outcome="hired"\} 1/);

    // AUDIT_RETENTION_DAYS=10: the trail recorded before "25 days on" minus 10 is gone (the last pass's event too), each chain anchored and intact.
    assert.ok(report.audit_events_pruned > 0, JSON.stringify(report));
    // A change after the pruning chains on from the anchor, with its field-level diff.
    const changed = await t.request('PATCH', '/v1/privacy/retention', { auth: org.apiKey, body: { applications_days: 12 } });
    const event = await waitFor(
      async () =>
        (await t.database
          .db('hi_audit_events')
          .where({ request_id: changed.headers.get('request-id') })
          .first()) ?? undefined,
      'the change in the trail',
    );
    assert.deepEqual(event.before, { changes: { applications_days: 10 } });
    assert.deepEqual(event.after.changes, { applications_days: 12 });
    const audit = new KnexAuditRepository(t.database.db);
    const head = (await audit.head(org.organizationId))!;
    assert.ok(head.anchorSequence > 0, 'the chain is anchored where retention left it');
    const chain = await audit.chain(org.organizationId);
    assert.equal(chain[0]!.sequence, head.anchorSequence + 1);
    assert.deepEqual(verifyChain(chain, head), []);
    assert.deepEqual(
      chain.map((e) => e.action),
      ['retention:audit_events', 'updateRetentionSettings'],
    );
    // Moving the anchor to hide a removal is caught.
    assert.deepEqual(
      verifyChain(chain.slice(1), { ...head, anchorSequence: chain[0]!.sequence, anchorHash: chain[0]!.hash }).map((p) => p.problem),
      ['anchor_mismatch'],
    );
  });

  it('prunes completed action runs past their retention in batches; never a running one, nor one an open record refers to', async () => {
    const runs = new KnexActionRunRepository(t.database.db);
    const now = Date.now();
    // Each run as the runner records it: the attempt, then the counterpart's outcome, `daysAgo` before now.
    const record = async (key: string, daysAgo: number, status: 'succeeded' | 'failed' | 'running', o = org) => {
      const at = new Date(now - daysAgo * DAY);
      const start = { organizationId: o.organizationId, idempotencyKey: key, action: 'notifications.status_update', step: 'send_email' };
      const run = await runs.startAttempt({ ...start, connector: 'smtp', connectionId: null, livemode: false }, at);
      if (status === 'running') return run.id;
      const result = status === 'succeeded' ? { reference: `queue-${key}` } : { errorCode: 'recipient_rejected', errorMessage: '550 no such user' };
      await runs.finishAttempt(run, { status, outcome: status === 'succeeded' ? 'succeeded' : 'permanent_error', ...result }, at);
      return run.id;
    };
    const ids = {
      recentSucceeded: await record('recent-ok', 5, 'succeeded'),
      oldSucceeded: await record('old-ok', 25, 'succeeded'),
      otherOrgOldSucceeded: await record('old-ok', 25, 'succeeded', other),
      oldFailed: await record('old-failed', 25, 'failed'),
      olderFailed: await record('older-failed', 45, 'failed'),
      stillRunning: await record('running', 60, 'running'),
      referencedByPending: await record('referenced-pending', 60, 'succeeded'),
      referencedBySent: await record('referenced-sent', 60, 'succeeded'),
    };
    const bulk = await Promise.all(Array.from({ length: 1200 }, (_, i) => record(`bulk-${i}`, 30, 'succeeded')));
    const statusUpdate = (id: string, runId: string, status: string) => ({
      id,
      organization_id: org.organizationId,
      change_id: id,
      application_id: 'app_x',
      recipient_name: 'Ada',
      recipient_email: 'ada@example.com',
      language: 'en',
      stage: 'interview',
      status,
      run_id: runId,
      created_at: new Date(),
      updated_at: new Date(),
    });
    await t.database
      .db('hi_status_updates')
      .insert([statusUpdate('su_pending', ids.referencedByPending, 'pending'), statusUpdate('su_sent', ids.referencedBySent, 'sent')]);

    const report = await run(new Date(now));
    const left = new Set((await t.database.db('hi_action_runs').select('id')).map((r: { id: string }) => r.id));
    // 1200 in bulk (three batches) + two old succeeded (one per organization) + the failed one past 40 days + the one a settled update refers to.
    assert.equal(report.operational_records_pruned.action_runs, 1204, JSON.stringify(report));
    assert.ok(bulk.every((id) => !left.has(id)));
    for (const gone of [ids.oldSucceeded, ids.otherOrgOldSucceeded, ids.olderFailed, ids.referencedBySent]) assert.ok(!left.has(gone), gone);
    for (const kept of [ids.recentSucceeded, ids.oldFailed, ids.stillRunning, ids.referencedByPending]) assert.ok(left.has(kept), kept);
    const gone = await t.request('GET', `/v1/integrations/runs/${ids.oldSucceeded}`, { auth: org.apiKey });
    assert.equal(gone.status, 404);

    // Once the update is settled, its run ages out like any other; the next pass has nothing more.
    await t.database.db('hi_status_updates').where({ id: 'su_pending' }).update({ status: 'sent' });
    assert.equal((await run(new Date(now))).operational_records_pruned.action_runs, 1);
    assert.equal((await run(new Date(now))).operational_records_pruned.action_runs, 0);
    // A later pass takes the failed run at 40 days; the running one stays.
    assert.equal((await run(new Date(now + 20 * DAY))).operational_records_pruned.action_runs, 2, 'the recent succeeded and the failed run');
    assert.ok(await t.database.db('hi_action_runs').where({ id: ids.stillRunning }).first());
  });
});
