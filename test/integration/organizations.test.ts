import { strict as assert } from 'node:assert';
import type { Clock } from '../../src/kernel/clock';
import { OrganizationService } from '../../src/features/organizations/domain/organization-service';
import { KnexApiKeyRepository, KnexOrganizationRepository } from '../../src/features/organizations/storage/organization-repository';
import { migrateLatest } from '../../src/platform/database/migrator';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

describe('organizations and API keys (storage)', () => {
  let database: TestDatabase;
  let now = new Date('2026-11-22T10:00:00Z');
  const clock: Clock = { now: () => now };
  let service: OrganizationService;

  before(async () => {
    database = await createTestDatabase();
    await migrateLatest(database.db);
    service = new OrganizationService(
      new KnexOrganizationRepository(database.db),
      new KnexApiKeyRepository(database.db),
      { rotationGraceSeconds: 3600 },
      clock,
    );
  });
  after(() => database?.drop());

  it('stores only a hash of the key, found by its indexed prefix', async () => {
    const { organization, key } = await service.create('Acme');
    const rows = await database.db('hi_api_keys').where({ organization_id: organization.id });
    assert.equal(rows.length, 1);
    assert.equal(rows[0].prefix, key.prefix);
    assert.ok(!JSON.stringify(rows).includes(key.apiKey));
    assert.ok(!JSON.stringify(rows).includes(key.apiKey.slice(17)));
    assert.equal(await service.authenticate(key.apiKey), organization.id);
  });

  it('rejects unknown, malformed and tampered keys with one error', async () => {
    const { key } = await service.create('Acme');
    for (const bad of ['', 'hik_', 'garbage', key.apiKey.slice(0, -1) + (key.apiKey.endsWith('Z') ? 'Y' : 'Z'), `${key.prefix}_${'x'.repeat(43)}`]) {
      await assert.rejects(service.authenticate(bad), (e: { code: string }) => e.code === 'invalid_api_key', bad);
    }
  });

  it('rotation keeps the old key working for the grace period, then not', async () => {
    now = new Date('2026-11-22T10:00:00Z');
    const { organization, key: first } = await service.create('Rotating');
    const second = await service.rotateKey(organization.id);
    assert.notEqual(second.apiKey, first.apiKey);
    assert.equal(second.previousKeysExpireAt?.toISOString(), '2026-11-22T11:00:00.000Z');
    assert.equal(await service.authenticate(first.apiKey), organization.id);
    assert.equal(await service.authenticate(second.apiKey), organization.id);
    now = new Date('2026-11-22T11:00:01Z');
    await assert.rejects(service.authenticate(first.apiKey));
    assert.equal(await service.authenticate(second.apiKey), organization.id);
    now = new Date('2026-11-22T10:00:00Z');
  });

  it('a second rotation does not extend an already expiring key', async () => {
    const { organization } = await service.create('Twice');
    await service.rotateKey(organization.id);
    now = new Date('2026-11-22T10:30:00Z');
    await service.rotateKey(organization.id);
    const keys = await service.listKeys(organization.id);
    assert.equal(keys[0]!.expiresAt?.toISOString(), '2026-11-22T11:00:00.000Z');
    assert.equal(keys[1]!.expiresAt?.toISOString(), '2026-11-22T11:30:00.000Z');
    assert.equal(keys[2]!.expiresAt, null);
    now = new Date('2026-11-22T10:00:00Z');
  });

  it('revocation by key or by prefix is immediate; unknown prefixes are 404', async () => {
    const { organization, key } = await service.create('Revoking');
    const other = await service.rotateKey(organization.id);
    await service.revokeKey(key.prefix);
    await assert.rejects(service.authenticate(key.apiKey));
    await service.revokeKey(other.apiKey);
    await assert.rejects(service.authenticate(other.apiKey));
    await assert.rejects(service.revokeKey(key.prefix), (e: { kind: string }) => e.kind === 'not_found');
    await assert.rejects(service.revokeKey('nonsense'), (e: { kind: string }) => e.kind === 'invalid');
  });

  it('rotating an unknown organization is 404', async () => {
    await assert.rejects(service.rotateKey('org_doesnotexist'), (e: { kind: string }) => e.kind === 'not_found');
  });
});
