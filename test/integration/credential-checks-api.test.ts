/**
 * Requirements on listings and credential checks through the API: a listing states what it
 * requires (validated with the listing, never half-written), the public listing the widget
 * reads shows it before consent, and POST /v1/credential-checks examines real VC-JWTs (a
 * did:web board served locally with its status list) against them. Another organization's
 * listing answers 404.
 */
import { strict as assert } from 'node:assert';
import { ADA, enableProfileApply, runConnect, waitFor } from '../helpers/profile-flow';
import { activateLicense } from '../helpers/hooks';
import { startTestHost, type TestHost } from '../helpers/test-host';
import { didKeyIssuer, LocalIssuerServer, openBadge, signDataIntegrity, signVcJwt } from '../helpers/credential-issuer';

const ORIGIN = 'https://careers.credentials.example';
const DAY = 86_400_000;

describe('credential requirements and checks API', function () {
  this.timeout(60_000);
  let t: TestHost;
  let board: LocalIssuerServer;
  let acme: { organizationId: string; apiKey: string };
  let globex: { organizationId: string; apiKey: string };
  let listingId: string;
  const as = (method: string, path: string, body?: unknown, auth = acme.apiKey) => t.request(method, path, { auth, body });
  const rnLicense = () => ({
    key: 'rn_license',
    label: 'RN license from a state board',
    credential_type: 'License',
    issuers: [board.issuer.did],
    min_validity_days: 30,
  });
  const license = (validUntil: number, index?: number) =>
    signVcJwt(
      board.issuer,
      openBadge(board.issuer, {
        achievementType: 'License',
        name: 'Registered Nurse',
        validFrom: new Date(Date.now() - 365 * DAY),
        validUntil: new Date(Date.now() + validUntil * DAY),
        ...(index !== undefined ? { status: { index, url: board.statusListUrl } } : {}),
      }),
    );

  before(async () => {
    board = await new LocalIssuerServer().start();
    t = await startTestHost({ env: { RATE_LIMIT_PER_MINUTE: '0' } });
    acme = await t.createOrganization('Acme Care');
    globex = await t.createOrganization('Globex');
  });
  after(async () => {
    await t?.close();
    await board?.close();
  });

  it('a listing carries its requirements: created, read, listed, replaced, removed', async () => {
    const created = await as('POST', '/v1/listings', { title: 'Night nurse', requirements: [rnLicense()] });
    assert.equal(created.status, 201, created.text);
    listingId = created.body.id;
    assert.deepEqual(created.body.requirements, [{ ...rnLicense(), verified_source_required: true }]);
    assert.deepEqual((await as('GET', `/v1/listings/${listingId}`)).body.requirements, created.body.requirements);
    const listed = await as('GET', '/v1/listings?limit=10');
    assert.deepEqual(listed.body.data.find((l: { id: string }) => l.id === listingId).requirements, created.body.requirements);
    const food = { key: 'food_handler', label: 'Food handler card', credential_type: 'FoodHandlerCard', verified_source_required: false };
    const patched = await as('PATCH', `/v1/listings/${listingId}`, { requirements: [rnLicense(), food] });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(
      patched.body.requirements.map((r: { key: string }) => r.key),
      ['rn_license', 'food_handler'],
    );
    assert.equal((await as('PATCH', `/v1/listings/${listingId}`, { title: 'Night nurse (ICU)' })).body.requirements.length, 2, 'kept when not named');
    const other = await as('POST', '/v1/listings', { title: 'Cook', requirements: [food] });
    assert.deepEqual((await as('PATCH', `/v1/listings/${other.body.id}`, { requirements: [] })).body.requirements, []);
    await as('PATCH', `/v1/listings/${listingId}`, { requirements: [rnLicense()] });
  });

  it('bad requirements are a 400 naming the field, and no listing is written', async () => {
    const before = (await as('GET', '/v1/listings?limit=100')).body.data.length;
    const cases = [
      [{ ...rnLicense(), key: 'Bad Key' }],
      [{ ...rnLicense(), min_validity_days: -1 }],
      [rnLicense(), rnLicense()],
      [{ ...rnLicense(), surprise: true }],
    ];
    for (const requirements of cases) {
      const response = await as('POST', '/v1/listings', { title: 'Should not exist', requirements });
      assert.equal(response.status, 400, response.text);
      assert.ok(['parameter_invalid', 'parameter_unknown'].includes(response.body.error.code), response.text);
      assert.match(response.body.error.param, /^requirements/);
    }
    assert.equal((await as('GET', '/v1/listings?limit=100')).body.data.length, before);
  });

  it('the public listing the widget reads shows what will be checked, before consent', async () => {
    await enableProfileApply(t, acme.apiKey, [ORIGIN]);
    const shown = await t.request('GET', `/v1/public/organizations/${acme.organizationId}/listings/${listingId}`);
    assert.equal(shown.status, 200, shown.text);
    assert.deepEqual(shown.body.requirements, [{ ...rnLicense(), verified_source_required: true }]);
  });

  it('checks presented credentials: a valid license is met, a revoked or short-lived one is not, each with its reason', async () => {
    board.revoke(42);
    const check = async (credentials: unknown[]) => {
      const response = await as('POST', '/v1/credential-checks', { listing_id: listingId, credentials });
      assert.equal(response.status, 200, response.text);
      return response.body;
    };
    const valid = await check([{ format: 'vc+jwt', credential: await license(365, 41) }]);
    assert.equal(valid.object, 'credential_check');
    assert.equal(valid.status, 'met');
    assert.deepEqual([valid.requirements[0].status, valid.requirements[0].evidence.issuer], ['met', board.issuer.did]);
    const revoked = await check([{ format: 'vc+jwt', credential: await license(365, 42) }]);
    assert.deepEqual([revoked.status, revoked.requirements[0].status, revoked.requirements[0].reason], ['not_met', 'unverified', 'credential_revoked']);
    const short = await check([{ format: 'vc+jwt', credential: await license(5) }]);
    assert.deepEqual([short.requirements[0].status, short.requirements[0].reason], ['expired', 'validity_below_minimum']);
    const claimed = await check([{ format: 'self_reported', title: 'License', issuer: 'A state board' }]);
    assert.deepEqual([claimed.requirements[0].status, claimed.requirements[0].reason], ['unverified', 'issuer_untrusted']);
    const nothing = await check([]);
    assert.deepEqual([nothing.requirements[0].status, nothing.requirements[0].reason], ['missing', 'no_matching_credential']);
    const garbage = await check([{ format: 'vc+jwt', credential: 'e30.e30.e30' }]);
    assert.equal(garbage.credentials[0].verification.status, 'invalid');
  });

  it('checks a license secured with a Data Integrity proof (eddsa-rdfc-2022) the same way: met; tampered or revoked, not', async () => {
    const signed = (index: number) =>
      signDataIntegrity(
        board.issuer,
        openBadge(board.issuer, {
          achievementType: 'License',
          name: 'Registered Nurse',
          validFrom: new Date(Date.now() - 365 * DAY),
          validUntil: new Date(Date.now() + 365 * DAY),
          status: { index, url: board.statusListUrl },
        }),
      );
    const check = async (credential: Record<string, unknown>) => {
      const response = await as('POST', '/v1/credential-checks', { listing_id: listingId, credentials: [{ format: 'vc+ld+json', credential }] });
      assert.equal(response.status, 200, response.text);
      return response.body;
    };
    const valid = await check(await signed(51));
    assert.deepEqual([valid.status, valid.requirements[0].evidence.source, valid.credentials[0].verification.status], ['met', 'data_integrity', 'verified']);
    const tampered = await signed(52);
    tampered.name = 'Nurse Practitioner';
    const forged = await check(tampered);
    assert.deepEqual([forged.status, forged.requirements[0].status, forged.requirements[0].reason], ['not_met', 'unverified', 'signature_invalid']);
    board.revoke(53);
    const revoked = await check(await signed(53));
    assert.deepEqual([revoked.requirements[0].status, revoked.requirements[0].reason], ['unverified', 'credential_revoked']);
  });

  it("an application's imported credentials are checked against its listing: a provider's verified flag is no proof", async () => {
    const aws = {
      key: 'aws',
      label: 'AWS certification',
      credential_type: 'AWS Certified Solutions Architect – Professional',
      verified_source_required: false,
    };
    const strictAws = { ...aws, key: 'aws_verified', verified_source_required: true };
    const cka = {
      key: 'cka',
      label: 'CKA',
      credential_type: 'Certified Kubernetes Administrator',
      issuers: ['The Linux Foundation'],
      verified_source_required: false,
    };
    const created = await as('POST', '/v1/listings', { title: 'Platform engineer', requirements: [aws, strictAws, cka] });
    assert.equal(created.status, 201, created.text);
    const platformId = created.body.id;
    const run = await runConnect(t, { organizationId: acme.organizationId, listingId: platformId, origin: ORIGIN, button: `Authorize as ${ADA.name}` });
    assert.equal(run.result?.message.type, 'profile-apply:authorized');
    const applied = await as('POST', `/v1/opportunities/listings/${platformId}/applications/profile`, { profile_user_id: ADA.id });
    assert.equal(applied.status, 201, applied.text);
    const check = await as('GET', `/v1/credential-checks/applications/${applied.body.application_id}`);
    assert.equal(check.status, 200, check.text);
    assert.equal(check.body.application_id, applied.body.application_id);
    const by = Object.fromEntries(check.body.requirements.map((r: { requirement: string }) => [r.requirement, r]));
    assert.deepEqual([by.aws.status, by.aws.evidence.source], ['met', 'self_reported']);
    assert.deepEqual(
      [by.aws_verified.status, by.aws_verified.reason],
      ['unverified', 'self_reported'],
      'the sandbox says verified: true, which proves nothing',
    );
    assert.deepEqual([by.cka.status, by.cka.reason], ['unverified', 'issuer_untrusted']);
    assert.equal(check.body.status, 'not_met');
    assert.equal((await as('GET', `/v1/credential-checks/applications/${applied.body.application_id}`, undefined, globex.apiKey)).status, 404);
  });

  it("an organization's trust list per credential type applies to requirements that name no issuers", async () => {
    const open = await as('POST', '/v1/listings', { title: 'Any board', requirements: [{ key: 'lic', label: 'A license', credential_type: 'License' }] });
    const stranger = await didKeyIssuer();
    const strangers = await signVcJwt(stranger, openBadge(stranger, { achievementType: 'License', name: 'RN', validFrom: new Date(Date.now() - DAY) }));
    const check = async () =>
      (await as('POST', '/v1/credential-checks', { listing_id: open.body.id, credentials: [{ format: 'vc+jwt', credential: strangers }] })).body
        .requirements[0];
    assert.equal((await check()).status, 'met', 'no trust list: any issuer whose proof checks out');
    const put = await as('PUT', '/v1/credential-trust/license', { issuers: [board.issuer.did] });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.issuers, [board.issuer.did]);
    assert.deepEqual([(await check()).status, (await check()).reason], ['unverified', 'issuer_untrusted'], 'types compare without case');
    assert.deepEqual(
      (await as('GET', '/v1/credential-trust')).body.data.map((l: { credential_type: string }) => l.credential_type),
      ['license'],
    );
    assert.equal((await as('GET', '/v1/credential-trust/LICENSE')).status, 200);
    assert.equal((await as('GET', '/v1/credential-trust/License', undefined, globex.apiKey)).status, 404, "another organization's list is not seen");
    assert.equal((await as('PUT', '/v1/credential-trust/License', { issuers: [] })).status, 400);
    assert.equal((await as('DELETE', '/v1/credential-trust/License')).status, 200);
    assert.equal((await as('DELETE', '/v1/credential-trust/License')).status, 404);
    assert.equal((await check()).status, 'met');
  });

  it('the verification actions: credentials.presented is checked for a licensed organization and published as credential_check.completed', async () => {
    const fire = (organizationId: string, payload: object) =>
      t.request('POST', '/host/v1/hooks/credentials.presented', { auth: t.operatorKey, body: { organization_id: organizationId, payload } });
    const availability = async () =>
      (await as('GET', '/v1/integrations/catalog')).body.groups
        .flatMap((g: { actions: any[] }) => g.actions)
        .find((a: { key: string }) => a.key === 'background_checks.license_verification').availability;
    const payload = { check_id: 'chk_1', listing_id: listingId, candidate_id: 'cand-7', credentials: [{ format: 'vc+jwt', credential: await license(365) }] };
    const unlicensed = await fire(acme.organizationId, payload);
    assert.equal(unlicensed.status, 200, unlicensed.text);
    assert.deepEqual(unlicensed.body.handled, []);
    await activateLicense(t, acme.apiKey, 'background_checks.license_verification');
    assert.deepEqual(await availability(), { status: 'available', missing: [], purchasable: true, reason: null });
    const fired = await fire(acme.organizationId, payload);
    assert.deepEqual(fired.body.handled, ['license-verification-check'], fired.text);
    const outcome = fired.body.outcomes.find((o: { handler: string }) => o.handler === 'license-verification-check');
    assert.deepEqual([outcome.result.status, outcome.result.requirements[0].status], ['met', 'met']);
    await fire(acme.organizationId, payload);
    const events = await waitFor(async () => {
      const list = (await as('GET', '/v1/events?type=credential_check.completed')).body.data;
      return list.length ? list : undefined;
    }, 'credential_check.completed');
    assert.equal(events.length, 1, 'fired twice, published once');
    assert.deepEqual([events[0].data.check_id, events[0].data.candidate_id, events[0].data.status], ['chk_1', 'cand-7', 'met']);
    const foreign = await fire(acme.organizationId, { ...payload, check_id: 'chk_2', listing_id: 'listing_HNKlZK814ei1Ofqzhm8C' });
    assert.equal(foreign.status, 200, foreign.text);
    assert.deepEqual(foreign.body.handled, [], 'an unknown listing is skipped with its reason, never a crash');
    const refused = await fire(acme.organizationId, { check_id: 'chk 3', listing_id: listingId, credentials: 'nope' });
    assert.deepEqual(refused.body.handled, []);
  });

  it("another organization's listing answers 404, as an unknown one; bad bodies are 400", async () => {
    const foreign = await as('POST', '/v1/credential-checks', { listing_id: listingId, credentials: [] }, globex.apiKey);
    assert.equal(foreign.status, 404, foreign.text);
    const unknown = await as('POST', '/v1/credential-checks', { listing_id: 'listing_HNKlZK814ei1Ofqzhm8C', credentials: [] });
    assert.equal(unknown.status, 404);
    assert.equal(foreign.body.error.code, unknown.body.error.code);
    const bad = await as('POST', '/v1/credential-checks', { listing_id: listingId, credentials: [{ format: 'pdf', credential: 'x' }] });
    assert.equal(bad.status, 400, bad.text);
    const globexSees = await as('GET', `/v1/listings/${listingId}`, undefined, globex.apiKey);
    assert.equal(globexSees.status, 404);
  });
});
