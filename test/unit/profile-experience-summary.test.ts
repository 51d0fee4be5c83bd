import { strict as assert } from 'node:assert';
import { summarizeExperience } from '../../src/domain/profiles/experience-summary';
import { buildSnapshot } from '../../src/domain/profiles/profile-snapshot';

const NOW = new Date('2026-01-01T12:00:00Z');

describe('profile: experience summary', () => {
  it('counts overlapping periods once', () => {
    // 2016-01-01..2020-01-01 and 2018-01-01..2022-01-01 overlap: 6 years, not 8.
    const summary = summarizeExperience(
      [
        { title: 'A', company: 'X', start_date: '2016-01-01', end_date: '2020-01-01' },
        { title: 'B', company: 'Y', start_date: '2018-01-01', end_date: '2022-01-01' },
      ],
      NOW,
    );
    assert.equal(summary.total_years, 6);
    assert.equal(summary.current_title, null);
    assert.equal(summary.current_company, null);
  });

  it('adds disjoint periods and runs the current one up to today, one decimal', () => {
    const summary = summarizeExperience(
      [
        { title: 'Old', company: 'X', start_date: '2010-01-01', end_date: '2012-01-01' },
        { title: 'Now', company: 'Current Co', start_date: '2024-07-01', end_date: null },
      ],
      NOW,
    );
    // 730 days + 549 days = 1279 days / 365.25 = 3.50…
    assert.equal(summary.total_years, 3.5);
    assert.equal(summary.current_title, 'Now');
    assert.equal(summary.current_company, 'Current Co');
  });

  it('a period inside another adds nothing; touching periods join', () => {
    const summary = summarizeExperience(
      [
        { title: 'Outer', company: 'X', start_date: '2015-01-01', end_date: '2020-01-01' },
        { title: 'Inner', company: 'Y', start_date: '2016-01-01', end_date: '2017-01-01' },
        { title: 'Next', company: 'Z', start_date: '2020-01-01', end_date: '2021-01-01' },
      ],
      NOW,
    );
    assert.equal(summary.total_years, 6);
  });

  it('the latest-started current position wins; future and empty periods count nothing', () => {
    const summary = summarizeExperience(
      [
        { title: 'Side gig', company: 'S', start_date: '2019-01-01', end_date: null },
        { title: 'Main job', company: 'M', start_date: '2023-01-01', end_date: null },
        { title: 'Future', company: 'F', start_date: '2027-01-01', end_date: '2028-01-01' },
      ],
      NOW,
    );
    assert.equal(summary.current_title, 'Main job');
    assert.equal(summary.total_years, 7);
  });

  it('no history is zero years', () => {
    assert.deepEqual(summarizeExperience([], NOW), { total_years: 0, current_title: null, current_company: null });
  });

  it('the snapshot keeps verified skills only and every credential with its flag', () => {
    const snapshot = buildSnapshot(
      'org_1',
      {
        id: 'usr_1',
        name: 'N',
        headline: null,
        profile_url: 'https://p.example/usr_1',
        skills: [
          { name: 'Go', verified: true },
          { name: 'Rust', verified: false },
          { name: 'Go', verified: true },
        ],
        credentials: [{ title: 'T', issuer: 'I', verified: false, issued_at: '2020-02-03T00:00:00Z' }],
        positions: [],
      },
      NOW,
    );
    assert.deepEqual(snapshot.skills, ['Go']);
    assert.deepEqual(snapshot.credentials, [{ title: 'T', issuer: 'I', verified: false, issued_at: '2020-02-03' }]);
  });
});
