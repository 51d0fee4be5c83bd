/**
 * Real providers name their users as they please: oidc-provider issuing a numeric subject
 * (`248289761001`), through the real popup flow (its login and consent forms), with our
 * profile shape, through a mapping (the id a JSON number), and with PROFILE_PROVIDER_ISSUER
 * alone (the userinfo endpoint and its standard claims). The candidate's profile_user_id is
 * ours: `usr_` + an opaque id derived from the provider and the subject, stable per candidate.
 */
import { strict as assert } from 'node:assert';
import { profileUserIdFor } from '../../src/features/profiles/domain/profile-user-id';
import { connectThroughProvider, MARIE, startOidcProvider, type Candidate, type OidcHarness } from '../helpers/oidc-provider';
import { enableProfileApply, QUESTIONS } from '../helpers/profile-flow';
import { startTestHost, type TestHost } from '../helpers/test-host';

const ORIGIN = 'https://jobs.numeric.example';
const ANSWERS = { years_experience: 3, work_authorization: true };
const SUBJECT = '248289761001';
const ADA: Candidate = { ...MARIE, id: SUBJECT, name: 'Ada Numeric' };
const OURS = /^usr_[0-9A-Za-z_-]{32}$/;

interface Site {
  t: TestHost;
  apiKey: string;
  organizationId: string;
  listingId: string;
}

async function openSite(env: Record<string, string>): Promise<Site> {
  const t = await startTestHost({ env });
  const org = await t.createOrganization('Numeric Ltd');
  const listing = await t.host.listings.create({ organizationId: org.organizationId, title: 'Analyst', questions: QUESTIONS });
  await enableProfileApply(t, org.apiKey, [ORIGIN]);
  return { t, apiKey: org.apiKey, organizationId: org.organizationId, listingId: listing.id };
}

describe('profile provider: numeric OpenID Connect subjects (oidc-provider)', function () {
  this.timeout(120_000);
  let oidc: OidcHarness;
  const sites: Record<'ourShape' | 'mapped' | 'issuerAlone', Site> = {} as never;

  before(async () => {
    oidc = await startOidcProvider({ tokenAuthMethod: 'client_secret_basic', candidates: [ADA] });
    const client = { PROFILE_PROVIDER_CLIENT_ID: oidc.clientId, PROFILE_PROVIDER_CLIENT_SECRET: oidc.clientSecret };
    sites.ourShape = await openSite({
      ...client,
      PROFILE_PROVIDER_ISSUER: oidc.issuer,
      PROFILE_PROVIDER_PROFILE_URL: `${oidc.apiUrl}/v1/profile`,
      PROFILE_PROVIDER_SCOPES: 'openid profile',
    });
    sites.mapped = await openSite({
      ...client,
      PROFILE_PROVIDER_ISSUER: oidc.issuer,
      PROFILE_PROVIDER_PROFILE_URL: `${oidc.apiUrl}/api/me`,
      PROFILE_PROVIDER_SCOPES: 'openid profile',
      PROFILE_PROVIDER_PROFILE_MAPPING: JSON.stringify({ id: 'account.user_id', name: 'account.display_name', profile_url: 'account.links.public' }),
    });
    sites.issuerAlone = await openSite({ ...client, PROFILE_PROVIDER_ISSUER: oidc.issuer });
    await oidc.register(Object.values(sites).map((s) => `${s.t.baseUrl}/v1/connect/profile/callback`));
  });
  after(async () => {
    for (const site of Object.values(sites)) await site?.t.close();
    await oidc?.close();
  });

  const connectAndApply = async (site: Site) => {
    const run = await connectThroughProvider(site.t.baseUrl, {
      organizationId: site.organizationId,
      listingId: site.listingId,
      origin: ORIGIN,
      login: SUBJECT,
    });
    assert.equal(run.result?.message.type, 'profile-apply:authorized', JSON.stringify(run.result?.message));
    const id = run.result!.message.profile_user_id as string;
    assert.match(id, OURS);
    assert.ok(!id.includes(SUBJECT), 'opaque: the subject cannot be read from it');
    assert.equal(run.result!.message.candidate.name, 'Ada Numeric');
    const applied = await site.t.request('POST', `/v1/opportunities/listings/${site.listingId}/applications/profile`, {
      auth: site.apiKey,
      body: { profile_user_id: id, answers: ANSWERS },
    });
    assert.equal(applied.status, 201, applied.text);
    assert.equal(applied.body.profile_url, `https://profiles.example/${SUBJECT}`);
    return { run, id };
  };

  it('our profile shape with a numeric id: the candidate applies under a derived usr_ id', async () => {
    const { id } = await connectAndApply(sites.ourShape);
    assert.equal(id, profileUserIdFor(oidc.issuer, SUBJECT));
  });

  it('through a mapping, the id a JSON number: the same derived id (same provider, same subject)', async () => {
    const { id } = await connectAndApply(sites.mapped);
    assert.equal(id, profileUserIdFor(oidc.issuer, SUBJECT));
  });

  it('PROFILE_PROVIDER_ISSUER alone: openid requested, userinfo read as standard claims (sub, name, profile)', async () => {
    const { run, id } = await connectAndApply(sites.issuerAlone);
    assert.equal(run.authorizeUrl.searchParams.get('scope'), 'openid profile');
    assert.equal(id, profileUserIdFor(oidc.issuer, SUBJECT));
    const again = await connectThroughProvider(sites.issuerAlone.t.baseUrl, {
      organizationId: sites.issuerAlone.organizationId,
      listingId: sites.issuerAlone.listingId,
      origin: ORIGIN,
      login: SUBJECT,
    });
    assert.equal(again.result?.message.profile_user_id, id, 'stable: the same candidate gets the same id again');
  });

  it('the id is per provider, URL-safe, and ids already of our shape are kept', () => {
    assert.notEqual(profileUserIdFor('https://a.example', SUBJECT), profileUserIdFor('https://b.example', SUBJECT));
    for (const subject of ['248289761001', 'a@b.example', 'ünïcode-ish|pipe', '0']) assert.match(profileUserIdFor('https://a.example', subject), OURS);
    assert.equal(profileUserIdFor('https://a.example', 'usr_sbx7Ada2Lovelace'), 'usr_sbx7Ada2Lovelace');
  });
});
