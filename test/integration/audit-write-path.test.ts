/**
 * The audit trail's write path: concurrent calls each record one row; the per-chain writer
 * chains them in batches (far fewer head locks than events), no chain forks, every event
 * is there once, and each chain verifies.
 */
import { strict as assert } from 'node:assert';
import { verifyChain } from '../../src/features/audit/domain/audit-chain';
import type { AuditEventInput } from '../../src/features/audit/domain/audit-event';
import { AuditWriter } from '../../src/features/audit/domain/audit-writer';
import { KnexAuditRepository } from '../../src/features/audit/storage/audit-repository';
import { migrateLatest } from '../../src/platform/database/migrator';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { testLogger } from '../helpers/log-capture';

const event = (organizationId: string | null, i: number): AuditEventInput => ({
  organizationId,
  actorType: 'organization_key',
  actor: 'hik_abc',
  ip: '127.0.0.1',
  requestId: `req_${organizationId}_${i}`,
  action: 'submitProfileApplication',
  method: 'POST',
  target: '/v1/opportunities/listings/listing_1/applications/profile',
  status: 201,
  before: null,
  after: { request_fields: ['answers'], response: { id: `app_${i}` } },
  at: new Date(),
});

describe('audit: the batched write path', function () {
  this.timeout(180_000);
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
    await migrateLatest(database.db);
  });
  after(async () => {
    await database.db.destroy();
    if (database.url) await database.drop();
  });

  it('chains 300 concurrent events per chain in few batches, none lost, none twice, no fork', async () => {
    const repository = new KnexAuditRepository(database.db);
    let batches = 0;
    const counting = Object.assign(Object.create(repository) as KnexAuditRepository, {
      chainPending: async (chain: string, limit: number) => {
        const moved = await repository.chainPending(chain, limit);
        if (moved > 0) batches += 1;
        return moved;
      },
    });
    const writer = new AuditWriter(counting, testLogger());
    const chains = ['org_busy', 'org_quiet', null];
    await Promise.all(chains.flatMap((org) => Array.from({ length: 300 }, (_, i) => writer.record(event(org, i)))));
    await writer.idle();
    assert.equal((await database.db('hi_audit_pending')).length, 0);
    for (const chain of ['org_busy', 'org_quiet', '_deployment']) {
      const events = await repository.chain(chain);
      assert.equal(events.length, 300, chain);
      assert.equal(new Set(events.map((e) => e.requestId)).size, 300, `${chain}: each event once`);
      assert.deepEqual(verifyChain(events, await repository.head(chain)), [], chain);
    }
    assert.ok(batches < 300, `${batches} batches for 900 events`);
  });
});
