/**
 * The audit trail's write path, measured alone: N events recorded at once on one chain (10
 * at a time, the pool size), the old way (a transaction per
 * event holding the chain's head lock: BEGIN, head insert, SELECT … FOR UPDATE, INSERT,
 * UPDATE, COMMIT) against the new (one INSERT per event; batches chained under one lock).
 * Prints events/s and statements per event. `node dist/bench/audit-writes.js [N]`; needs DATABASE_URL.
 */
import 'reflect-metadata';
import { AuditWriter } from '../src/features/audit/domain/audit-writer';
import type { AuditEventInput } from '../src/features/audit/domain/audit-event';
import { KnexAuditRepository } from '../src/features/audit/storage/audit-repository';
import { migrateLatest } from '../src/platform/database/migrator';
import { createTestDatabase } from '../test/helpers/database';
import { testLogger } from '../test/helpers/log-capture';

const N = Number(process.argv[2] ?? 2000);
// As many as the pool's connections (10): at 50 the old path timed out waiting for a connection (each event holds one through its lock wait).
const CONCURRENCY = Number(process.env.AUDIT_BENCH_CONCURRENCY ?? 10);

const event = (chain: string, i: number): AuditEventInput => ({
  organizationId: chain,
  actorType: 'organization_key',
  actor: 'hik_bench',
  ip: '127.0.0.1',
  requestId: `req_${i}`,
  action: 'submitProfileApplication',
  method: 'POST',
  target: '/v1/opportunities/listings/listing_1/applications/profile',
  status: 201,
  before: null,
  after: { request_fields: ['answers', 'cover_letter', 'profile_user_id'], response: { id: `app_${i}`, object: 'application', status: 'submitted' } },
  at: new Date(),
});

async function timed(run: (i: number) => Promise<unknown>, done: () => Promise<void>): Promise<number> {
  const start = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) await run(next++);
    }),
  );
  await done();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function main(): Promise<void> {
  const database = await createTestDatabase();
  await migrateLatest(database.db);
  let statements = 0;
  database.db.on('query', () => (statements += 1));
  const repository = new KnexAuditRepository(database.db);
  const old = await timed(
    (i) => repository.append(event('org_old', i)),
    async () => undefined,
  );
  const oldStatements = statements;
  statements = 0;
  const writer = new AuditWriter(repository, testLogger());
  const batched = await timed(
    (i) => writer.record(event('org_new', i)),
    () => writer.idle(),
  );
  const newStatements = statements;
  console.log(`events ${N}, ${CONCURRENCY} at a time, one chain`);
  console.log(`locked transaction per event: ${(N / old).toFixed(0)} events/s, ${(oldStatements / N).toFixed(2)} statements per event`);
  console.log(`record + batched chaining:    ${(N / batched).toFixed(0)} events/s, ${(newStatements / N).toFixed(2)} statements per event`);
  console.log(`ratio: ${(old / batched).toFixed(2)}x`);
  await database.drop();
}

void main();
