/** The provider's profile answer is checked before anything of it is stored (src/providers/profile/profile-response.ts). */
import { strict as assert } from 'node:assert';
import { parseProviderProfile } from '../../src/providers/profile/profile-response';

const profile = (positions: unknown[], credentials: unknown[] = []) => ({
  id: 'usr_abc',
  name: 'Ada',
  headline: null,
  profile_url: 'https://profiles.example/usr_abc',
  skills: [{ name: 'TypeScript', verified: true }],
  credentials,
  positions,
});

describe('provider profile answer', () => {
  it('accepts real calendar dates, with or without a time', () => {
    const parsed = parseProviderProfile(
      profile([{ title: 'Engineer', company: 'Acme', start_date: '2024-02-29', end_date: '2025-01-31T00:00:00Z' }], [{ title: 'AWS', issuer: 'Amazon', verified: true, issued_at: '2023-12-31' }]),
    );
    assert.equal(parsed?.positions[0]?.start_date, '2024-02-29');
  });

  it('refuses a day that does not exist, so no bad date reaches the experience summary', () => {
    for (const bad of ['2023-02-30', '2023-02-29', '2023-13-01', '2023-04-31', '2023-00-10', 'yesterday']) {
      assert.equal(parseProviderProfile(profile([{ title: 'Engineer', company: 'Acme', start_date: bad, end_date: null }])), undefined, `start_date ${bad}`);
      assert.equal(parseProviderProfile(profile([], [{ title: 'AWS', issuer: 'Amazon', verified: true, issued_at: bad }])), undefined, `issued_at ${bad}`);
    }
  });
});
