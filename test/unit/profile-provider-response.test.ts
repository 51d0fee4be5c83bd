/** The provider's profile answer is checked before anything of it is stored (src/features/profiles/provider/profile-response.ts). */
import { strict as assert } from 'node:assert';
import { parseProfileMapping, ProfileMappingError } from '../../src/kernel/config/profile-mapping';
import { parseProviderProfile } from '../../src/features/profiles/provider/profile-response';

const profile = (positions: unknown[], credentials: unknown[] = []) => ({
  id: 'usr_abc',
  name: 'Ada',
  headline: null,
  profile_url: 'https://profiles.example/usr_abc',
  skills: [{ name: 'TypeScript', verified: true }],
  credentials,
  positions,
});

const problemOf = (parsed: ReturnType<typeof parseProviderProfile>) => ('problem' in parsed ? parsed.problem : undefined);

describe('provider profile answer', () => {
  it('accepts real calendar dates, with or without a time', () => {
    const parsed = parseProviderProfile(
      profile(
        [{ title: 'Engineer', company: 'Acme', start_date: '2024-02-29', end_date: '2025-01-31T00:00:00Z' }],
        [{ title: 'AWS', issuer: 'Amazon', verified: true, issued_at: '2023-12-31' }],
      ),
    );
    assert.ok('profile' in parsed);
    assert.equal(parsed.profile.positions[0]?.start_date, '2024-02-29');
  });

  it('refuses a day that does not exist, so no bad date reaches the experience summary', () => {
    for (const bad of ['2023-02-30', '2023-02-29', '2023-13-01', '2023-04-31', '2023-00-10', 'yesterday']) {
      assert.match(
        problemOf(parseProviderProfile(profile([{ title: 'Engineer', company: 'Acme', start_date: bad, end_date: null }])))!,
        /^positions\[0\]\.start_date: /,
        `start_date ${bad}`,
      );
      assert.match(
        problemOf(parseProviderProfile(profile([], [{ title: 'AWS', issuer: 'Amazon', verified: true, issued_at: bad }])))!,
        /^credentials\[0\]\.issued_at: /,
        `issued_at ${bad}`,
      );
    }
  });

  it("takes the provider's own subject, string or number, as our derived usr_ id", () => {
    for (const id of ['248289761001', 248289761001, 'a@b.example']) {
      const parsed = parseProviderProfile({ ...profile([]), id }, undefined, 'https://issuer.example');
      assert.ok('profile' in parsed, JSON.stringify(parsed));
      assert.match(parsed.profile.id, /^usr_[0-9A-Za-z_-]{32}$/);
    }
    const numeric = parseProviderProfile({ ...profile([]), id: 248289761001 }, undefined, 'https://issuer.example');
    const text = parseProviderProfile({ ...profile([]), id: '248289761001' }, undefined, 'https://issuer.example');
    assert.ok('profile' in numeric && 'profile' in text);
    assert.equal(numeric.profile.id, text.profile.id, 'the same subject, as a number or a string');
  });

  it('names the field it refuses, in the provider’s own terms', () => {
    assert.equal(problemOf(parseProviderProfile({ ...profile([]), id: 'has space' })), 'id: a subject of 1–255 printable ASCII characters');
    assert.equal(problemOf(parseProviderProfile({ ...profile([]), id: 'x'.repeat(256) })), 'id: a subject of 1–255 printable ASCII characters');
    assert.ok(problemOf(parseProviderProfile({ ...profile([]), id: { nested: 1 } }))?.startsWith('id: '));
    const mapping = parseProfileMapping({ id: 'account.user_id', positions: { path: 'employment', company: 'employer.name', start_date: 'from' } });
    const answer = {
      account: { user_id: 'usr_abc' },
      name: 'Ada',
      profile_url: 'https://p.example/a',
      employment: [{ title: 'Engineer', employer: {}, from: '2020-01-01' }],
    };
    assert.match(problemOf(parseProviderProfile(answer, mapping))!, /^employment\[0\]\.employer\.name: /);
  });

  it('reads a differently shaped answer through the mapping, keeping the verified flag of positions where given', () => {
    const mapping = parseProfileMapping({
      id: 'account.user_id',
      name: 'account.display_name',
      headline: 'account.tagline',
      profile_url: 'account.links.public',
      skills: { path: 'expertise', name: 'label', verified: 'confirmed' },
      credentials: { path: 'certifications', title: 'name', issuer: 'authority', verified: 'is_verified', issued_at: 'awarded_on' },
      positions: { path: 'employment', title: 'role', company: 'employer.name', start_date: 'from', end_date: 'to', verified: 'confirmed' },
    });
    const parsed = parseProviderProfile(
      {
        account: { user_id: 'usr_abc', display_name: 'Ada', tagline: 'Analyst', links: { public: 'https://p.example/usr_abc' } },
        expertise: [{ label: 'Analysis', confirmed: true }],
        certifications: [{ name: 'Cert', authority: 'Society', is_verified: false, awarded_on: '2020-02-02' }],
        employment: [
          { role: 'Analyst', employer: { name: 'Engine Co' }, from: '2019-01-01', to: null, confirmed: true },
          { role: 'Clerk', employer: { name: 'Bank' }, from: '2015-01-01', to: '2018-12-31' },
        ],
      },
      mapping,
    );
    assert.ok('profile' in parsed, JSON.stringify(parsed));
    assert.equal(parsed.profile.name, 'Ada');
    assert.deepEqual(parsed.profile.skills, [{ name: 'Analysis', verified: true }]);
    assert.deepEqual(parsed.profile.positions, [
      { title: 'Analyst', company: 'Engine Co', start_date: '2019-01-01', end_date: null, verified: true },
      { title: 'Clerk', company: 'Bank', start_date: '2015-01-01', end_date: '2018-12-31' },
    ]);
  });

  it('a bad mapping is refused at start, naming the entry', () => {
    const entryOf = (input: string | Record<string, unknown>) => {
      try {
        parseProfileMapping(input);
      } catch (error) {
        assert.ok(error instanceof ProfileMappingError);
        return error.entry;
      }
      return undefined;
    };
    assert.equal(entryOf('{not json'), '(document)');
    assert.equal(entryOf({ nickname: 'a' }), 'nickname');
    assert.equal(entryOf({ positions: { employer: 'x' } }), 'positions.employer');
    assert.equal(entryOf({ skills: { name: 'a..b' } }), 'skills.name');
    assert.equal(entryOf({ id: 42 }), 'id');
    assert.equal(entryOf({ name: 'user.full_name' }), undefined);
  });
});
