/** GET and PATCH /v1/organization/settings: defaults, partial updates, origin validation. */
import { strict as assert } from 'node:assert';
import { startTestHost, type TestHost } from '../helpers/test-host';

describe('settings: profile apply settings of an organization', () => {
  let t: TestHost;
  let org: { organizationId: string; apiKey: string };
  const patch = (body: unknown, auth = org.apiKey) => t.request('PATCH', '/v1/organization/settings', { auth, body });

  before(async () => {
    t = await startTestHost();
    org = await t.createOrganization('Settings Co');
  });
  after(() => t?.close());

  it('starts disabled with the default button', async () => {
    const response = await t.request('GET', '/v1/organization/settings', { auth: org.apiKey });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.profile_apply, { enabled: false, allowed_origins: [], return_urls: [], button_text: 'Apply with profile', theme: 'light' });
    assert.equal(response.body.object, 'organization_settings');
  });

  it('PATCH changes only what it names, normalizes and dedupes origins', async () => {
    const first = await patch({
      profile_apply: {
        enabled: true,
        allowed_origins: ['https://Jobs.Example.com', 'https://jobs.example.com/', 'http://localhost:8080', 'https://careers.example.org:8443'],
      },
    });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(first.body.profile_apply.allowed_origins, ['https://jobs.example.com', 'http://localhost:8080', 'https://careers.example.org:8443']);
    const second = await patch({ profile_apply: { button_text: '  Apply with my profile ', theme: 'dark' } });
    assert.deepEqual(second.body.profile_apply, {
      enabled: true,
      allowed_origins: ['https://jobs.example.com', 'http://localhost:8080', 'https://careers.example.org:8443'],
      return_urls: [],
      button_text: 'Apply with my profile',
      theme: 'dark',
    });
    assert.deepEqual((await t.request('GET', '/v1/organization/settings', { auth: org.apiKey })).body.profile_apply, second.body.profile_apply);
  });

  const invalid: [string, unknown, string][] = [
    ['an origin with a path', { allowed_origins: ['https://jobs.example.com/careers'] }, 'profile_apply.allowed_origins.0'],
    ['an origin with a query', { allowed_origins: ['https://jobs.example.com?x=1'] }, 'profile_apply.allowed_origins.0'],
    ['an origin with credentials', { allowed_origins: ['https://user:pw@jobs.example.com'] }, 'profile_apply.allowed_origins.0'],
    ['plain http off loopback', { allowed_origins: ['https://ok.example', 'http://jobs.example.com'] }, 'profile_apply.allowed_origins.1'],
    ['another scheme', { allowed_origins: ['ftp://jobs.example.com'] }, 'profile_apply.allowed_origins.0'],
    ['a wildcard', { allowed_origins: ['*'] }, 'profile_apply.allowed_origins.0'],
    ['too many origins', { allowed_origins: Array.from({ length: 21 }, (_, i) => `https://o${i}.example`) }, 'profile_apply.allowed_origins'],
    ['an unknown theme', { theme: 'neon' }, 'profile_apply.theme'],
    ['an empty button text', { button_text: '   ' }, 'profile_apply.button_text'],
    ['enabled as a string', { enabled: 'yes' }, 'profile_apply.enabled'],
    ['an unknown setting', { colour: 'red' }, 'profile_apply.colour'],
  ];
  for (const [name, change, param] of invalid) {
    it(`refuses ${name} (400, nothing changed)`, async () => {
      const before = (await t.request('GET', '/v1/organization/settings', { auth: org.apiKey })).body;
      const response = await patch({ profile_apply: change });
      assert.equal(response.status, 400, response.text);
      assert.equal(response.body.error.param, param);
      assert.deepEqual((await t.request('GET', '/v1/organization/settings', { auth: org.apiKey })).body, before);
    });
  }

  it('is the calling organization only: no key 401, a candidate or operator credential 403', async () => {
    assert.equal((await t.request('GET', '/v1/organization/settings')).status, 401);
    assert.equal((await t.request('GET', '/v1/organization/settings', { auth: t.operatorKey })).status, 403);
    const other = await t.createOrganization('Other');
    assert.deepEqual((await t.request('GET', '/v1/organization/settings', { auth: other.apiKey })).body.profile_apply.allowed_origins, []);
  });
});
