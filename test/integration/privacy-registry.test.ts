/**
 * The candidate data registry is complete: every table of a fully migrated database (the
 * plugin's and the standalone host's) is either covered by a registered store (so export,
 * erasure and retention reach it) or declared free of candidate data with a reason. A
 * feature that adds a table and registers neither fails here.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { HOST_TABLES } from '../../src/standalone/host/candidate-erasure';
import { startTestHost, type TestHost } from '../helpers/test-host';

/** Column names that hold a person's data wherever they appear. */
const PERSONAL_COLUMN = /(^|_)(profile_user_id|user_id|email|phone|candidate|cover_letter|answers|name_of_person)(_|$)/;

describe('privacy: the candidate data registry covers every table', function () {
  this.timeout(120_000);
  let t: TestHost;
  let registry: { stores: { name: string; tables: string[]; description: string }[]; tables_without_candidate_data: { table: string; reason: string }[] };
  let columns: Map<string, string[]>;

  before(async () => {
    t = await startTestHost();
    const response = await t.request('GET', '/v1/candidates/data_stores', { auth: t.operatorKey });
    assert.equal(response.status, 200, response.text);
    registry = response.body;
    const rows: { table_name: string; column_name: string }[] = (
      await t.database.db.raw(
        `select c.table_name, c.column_name from information_schema.columns c
           join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
          where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`,
      )
    ).rows;
    columns = new Map();
    for (const row of rows) columns.set(row.table_name, [...(columns.get(row.table_name) ?? []), row.column_name]);
  });
  after(() => t?.close());

  it('every table is registered by a store or declared free of candidate data, and nothing else is named', () => {
    const tables = [...columns.keys()].sort();
    assert.ok(tables.includes('hi_profile_applications') && tables.includes('host_pipeline_applications'), `the migrated tables: ${tables.join(', ')}`);
    const stored = new Set(registry.stores.flatMap((s) => s.tables));
    const free = new Set(registry.tables_without_candidate_data.map((t) => t.table));
    const host = new Set(Object.keys(HOST_TABLES));
    assert.deepEqual(
      tables.filter((table) => !stored.has(table) && !free.has(table) && !host.has(table)),
      [],
      'tables holding candidate data must register a store (registerCandidateData, docs/privacy.md); others declare noCandidateData with a reason',
    );
    assert.deepEqual([...stored, ...free, ...host].filter((table) => !columns.has(table)).sort(), [], 'registrations naming tables that do not exist');
    assert.deepEqual(
      [...stored].filter((table) => free.has(table)),
      [],
      'a table both registered and declared free',
    );
  });

  it('a table declared free of candidate data has no column named like personal data', () => {
    const suspicious = registry.tables_without_candidate_data.flatMap(({ table }) =>
      (columns.get(table) ?? []).filter((column) => PERSONAL_COLUMN.test(column)).map((column) => `${table}.${column}`),
    );
    // Erasure records keep the id only while they run (a check constraint clears it when done).
    assert.deepEqual(
      suspicious.filter((c) => !c.startsWith('hi_candidate_erasures.')),
      [],
    );
  });

  it('every store says what it holds, under a unique name', () => {
    const names = registry.stores.map((s) => s.name);
    assert.equal(new Set(names).size, names.length);
    for (const store of registry.stores) assert.ok(store.description.length > 20, `${store.name} describes itself`);
    for (const declared of registry.tables_without_candidate_data) assert.ok(declared.reason.length >= 10, `${declared.table} gives a reason`);
  });

  it("docs/privacy.md's table lists every registered store with its tables, and no other", () => {
    const page = readFileSync(path.resolve(__dirname, '../../../docs/privacy.md'), 'utf8');
    const section = page.split('## What is stored, and where')[1]!.split(/^## /m)[0]!;
    const documented = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => {
        const [stores, tables] = line.slice(2).split(' | ');
        const names = [...stores!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);
        const tableNames = [...tables!.matchAll(/`(hi_[a-z0-9_]+)`/g)].map((m) => m[1]!);
        return names.map((name, i) => ({ name, tables: names.length > 1 ? [tableNames[i]] : tableNames }));
      });
    assert.deepEqual(documented.map((d) => d.name).sort(), registry.stores.map((s) => s.name).sort(), 'stores in docs/privacy.md');
    for (const store of registry.stores) {
      const row = documented.find((d) => d.name === store.name)!;
      if (row.tables[0] !== undefined) assert.deepEqual(row.tables, store.tables, `${store.name}'s tables in docs/privacy.md`);
    }
  });

  it('an organization may read the registry too; anonymous callers may not', async () => {
    const org = await t.createOrganization('Registry Reader');
    assert.equal((await t.request('GET', '/v1/candidates/data_stores', { auth: org.apiKey })).status, 200);
    assert.equal((await t.request('GET', '/v1/candidates/data_stores')).status, 401);
  });
});
