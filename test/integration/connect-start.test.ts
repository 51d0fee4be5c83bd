/**
 * Where a connect popup may start, and what it tells whom when it may not; and the
 * callback finishing on another API process than the one that started the flow.
 */
import { strict as assert } from 'node:assert';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStandaloneHost } from '../../src/standalone/host/standalone-host';
import { testConfig } from '../helpers/config';
import { testLogger } from '../helpers/log-capture';
import { ADA, browse, CookieJar, enableProfileApply, parseConsentForm, popupResult } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';

const ORIGIN = 'https://jobs.umbrella.example';

describe('connect: starting the popup', function () {
  this.timeout(30_000);
  let t: TestHost;
  let org: { organizationId: string; apiKey: string };
  let listingId: string;
  const start = (params: Record<string, string>) => browse(new CookieJar(), `${t.baseUrl}/v1/connect/profile?${new URLSearchParams(params)}`);

  before(async () => {
    t = await startTestHost();
    org = await t.createOrganization('Umbrella');
    listingId = (await t.host.listings.create({ organizationId: org.organizationId, title: 'Chemist', questions: [] })).id;
    await enableProfileApply(t, org.apiKey, [ORIGIN]);
  });
  after(() => t?.close());

  const expectShowOnly = (hop: Awaited<ReturnType<typeof start>>, code: string) => {
    assert.equal(hop.status, 400, hop.text.slice(0, 200));
    assert.equal(hop.location, undefined);
    assert.equal(popupResult(hop.text), undefined, 'nothing is posted');
    assert.ok(!hop.text.includes('postMessage'));
    assert.match(hop.headers.get('content-security-policy')!, /script-src 'none'/);
    assert.match(hop.text, new RegExp(code));
    assert.equal(hop.headers.getSetCookie().length, 0, 'no session is started');
  };

  it('an origin that is not allowed is shown origin_not_allowed and posted to nobody', async () => {
    expectShowOnly(await start({ organization_id: org.organizationId, listing_id: listingId, origin: 'https://evil.example' }), 'origin_not_allowed');
    expectShowOnly(await start({ organization_id: org.organizationId, listing_id: listingId }), 'origin_not_allowed');
    expectShowOnly(await start({ organization_id: 'org_missing', listing_id: listingId, origin: ORIGIN }), 'origin_not_allowed');
    expectShowOnly(await start({ listing_id: listingId, origin: ORIGIN }), 'origin_not_allowed');
  });

  it('an unavailable listing is posted to the allowed origin as listing_unavailable', async () => {
    const closed = await t.host.listings.create({ organizationId: org.organizationId, title: 'Closed', questions: [], status: 'closed' });
    const other = await t.createOrganization('Not Umbrella');
    const foreign = await t.host.listings.create({ organizationId: other.organizationId, title: 'Foreign', questions: [] });
    for (const id of [closed.id, foreign.id, 'listing_missing']) {
      const hop = await start({ organization_id: org.organizationId, listing_id: id, origin: ORIGIN });
      assert.equal(hop.status, 200);
      const result = popupResult(hop.text);
      assert.equal(result?.target_origin, ORIGIN);
      assert.equal(result?.message.code, 'listing_unavailable');
      assert.equal(result?.message.type, 'profile-apply:error');
      assert.equal(result?.message.source, 'hiring-integrations');
    }
  });

  it('a disabled organization is integration_disabled, posted to its allowed origin', async () => {
    await t.request('PATCH', '/v1/organization/settings', { auth: org.apiKey, body: { profile_apply: { enabled: false } } });
    try {
      const hop = await start({ organization_id: org.organizationId, listing_id: listingId, origin: ORIGIN });
      assert.equal(popupResult(hop.text)?.target_origin, ORIGIN);
      assert.equal(popupResult(hop.text)?.message.code, 'integration_disabled');
    } finally {
      await enableProfileApply(t, org.apiKey, [ORIGIN]);
    }
  });

  it('the callback may land on another API process than the start (sessions in the database)', async () => {
    // A second process of the same deployment: same database, same BASE_URL and secret.
    const second = await createStandaloneHost({
      config: testConfig({ DATABASE_URL: t.database.url, BASE_URL: t.baseUrl }),
      logger: testLogger(),
      db: t.database.db,
      runWorkers: false,
    });
    const server = createServer(second.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const secondUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const jar = new CookieJar();
      const begun = await browse(
        jar,
        `${t.baseUrl}/v1/connect/profile?${new URLSearchParams({ organization_id: org.organizationId, listing_id: listingId, origin: ORIGIN })}`,
      );
      const consent = await browse(jar, new URL(begun.location!).toString());
      const form = parseConsentForm(consent.text, t.baseUrl);
      const button = form.buttons.get(`Authorize as ${ADA.name}`)!;
      const decided = await browse(jar, form.action, { method: 'POST', form: { ...form.hidden, [button.name]: button.value } });
      const callback = new URL(decided.location!);
      const finished = await browse(jar, `${secondUrl}${callback.pathname}${callback.search}`);
      const result = popupResult(finished.text);
      assert.equal(result?.message.type, 'profile-apply:authorized', finished.text.slice(0, 300));
      assert.equal(result?.target_origin, ORIGIN);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await second.plugin.dispose();
    }
  });
});
