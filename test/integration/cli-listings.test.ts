/**
 * The operator CLI's listing commands: each command function on a database of its own
 * (parser-agnostic, as the CLI calls them), and the real process for the round trip.
 */
import { strict as assert } from 'node:assert';
import { createListing, getListing, listListings, setListingStatus, updateListing, upsertListing } from '../../src/standalone/cli/listing-commands';
import { ListingsStore } from '../../src/standalone/host/listings-store';
import { UsageError } from '../../src/standalone/cli/usage-error';
import { migrateAll } from '../../src/standalone/host/standalone-host';
import { runCli } from '../helpers/cli';
import { testEnv } from '../helpers/config';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { skipBecause } from '../helpers/skip';

const ORG = 'org_cliListings0000000001';

describe('operator CLI: listing commands', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let listings: ListingsStore;

  before(async () => {
    database = await createTestDatabase();
    await migrateAll(database.db);
    listings = new ListingsStore(database.db);
  });
  after(() => database?.drop());

  it('create, get, update, close, reopen, list', async () => {
    const created = await createListing(listings, {
      org: ORG,
      title: 'Nurse',
      questions: '[{"key":"shifts","label":"Night shifts?","type":"boolean","required":true}]',
      externalId: 'ats-9',
    });
    const id = (created.value as { listing_id: string }).listing_id;
    assert.match(id, /^listing_/);
    const got = (await getListing(listings, { org: ORG, id })).value as { external_id: string; questions: unknown[] };
    assert.equal(got.external_id, 'ats-9');
    assert.equal(got.questions.length, 1);
    const updated = (await updateListing(listings, { org: ORG, id, title: 'Head nurse', location: 'Lyon' })).value as { title: string; location: string };
    assert.equal(updated.title, 'Head nurse');
    assert.equal(updated.location, 'Lyon');
    assert.equal(((await setListingStatus(listings, { org: ORG, id }, 'closed')).value as { status: string }).status, 'closed');
    assert.equal(((await listListings(listings, { org: ORG, status: 'open' })).value as { data: unknown[] }).data.length, 0);
    assert.equal(((await setListingStatus(listings, { org: ORG, id }, 'open')).value as { status: string }).status, 'open');
    const list = (await listListings(listings, { org: ORG, externalId: 'ats-9' })).value as { data: { id: string }[] };
    assert.deepEqual(
      list.data.map((l) => l.id),
      [id],
    );
    await assert.rejects(getListing(listings, { org: 'org_someoneElse00000000001', id }), /No such listing/);
  });

  it('upsert by external id keeps one listing; bad input is a usage error', async () => {
    const first = await upsertListing(listings, { org: ORG, externalId: 'req-1', title: 'Welder' });
    const second = await upsertListing(listings, { org: ORG, externalId: 'req-1', title: 'Senior welder', status: 'closed' });
    assert.match(first.text, /created/);
    assert.match(second.text, /updated/);
    assert.equal((first.value as { id: string }).id, (second.value as { id: string }).id);
    await assert.rejects(upsertListing(listings, { org: ORG, externalId: 'req-2', title: 'x', questions: '{nope' }), UsageError);
    await assert.rejects(upsertListing(listings, { org: ORG, externalId: 'req-2', title: 'x', status: 'draft' }), UsageError);
    await assert.rejects(createListing(listings, { org: ORG, title: ' ' }), UsageError);
    await assert.rejects(listListings(listings, { org: ORG, limit: '0' }), UsageError);
  });

  it('runs as a process: upsert twice, close, list --json', async function () {
    if (!database.url) {
      skipBecause(this, 'the CLI process needs its own database connection; PGlite in memory is this process only');
    }
    const env = testEnv({ DATABASE_URL: database.url });
    const cli = (...args: string[]) => runCli(args, env);
    const org = JSON.parse(cli('org', 'create', '--name', 'CLI Listings', '--json').stdout).organization_id as string;
    const a = cli('listing', 'upsert', '--org', org, '--external-id', 'job-77', '--title', 'Baker', '--json');
    assert.equal(a.code, 0, a.stderr);
    const b = cli('listing', 'upsert', '--org', org, '--external-id', 'job-77', '--title', 'Head baker', '--json');
    assert.equal(JSON.parse(b.stdout).id, JSON.parse(a.stdout).id);
    const closed = cli('listing', 'close', '--org', org, '--id', JSON.parse(a.stdout).id, '--json');
    assert.equal(JSON.parse(closed.stdout).status, 'closed');
    const list = JSON.parse(cli('listing', 'list', '--org', org, '--json').stdout);
    assert.equal(list.data.length, 1);
    assert.equal(list.data[0].title, 'Head baker');
    const bad = cli('listing', 'close', '--org', org);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /required option '--id/);
  });
});
