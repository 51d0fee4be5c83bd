import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { summarizeExperience } from '../../src/features/profiles/domain/experience-summary';
import { buildSnapshot } from '../../src/features/profiles/domain/profile-snapshot';

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

  it('counts the first and the last day of each position (end dates are inclusive)', () => {
    // 19 days: 0.052 years → 0.1 (counting 18, one day short, gave 0.0).
    assert.equal(summarizeExperience([{ title: 'A', company: 'X', start_date: '2020-01-01', end_date: '2020-01-19' }], NOW).total_years, 0.1);
    // Back to back: 9 + 10 days, no gap and no overlap.
    const adjacent = summarizeExperience(
      [
        { title: 'A', company: 'X', start_date: '2020-01-01', end_date: '2020-01-09' },
        { title: 'B', company: 'Y', start_date: '2020-01-10', end_date: '2020-01-19' },
      ],
      NOW,
    );
    assert.equal(adjacent.total_years, 0.1);
  });

  it('total years are the distinct days worked, whatever the positions (property)', () => {
    const DAY = 86_400_000;
    const today = Math.floor(NOW.getTime() / DAY);
    const iso = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
    const position = fc.record({ start: fc.integer({ min: today - 4000, max: today + 30 }), length: fc.integer({ min: 0, max: 1500 }), current: fc.boolean() });
    fc.assert(
      fc.property(fc.array(position, { maxLength: 8 }), (drawn) => {
        const positions = drawn.map((p) => ({ title: 'T', company: 'C', start_date: iso(p.start), end_date: p.current ? null : iso(p.start + p.length) }));
        const days = new Set<number>();
        for (const p of drawn) for (let d = p.start; d <= Math.min(p.current ? today : p.start + p.length, today); d++) days.add(d);
        assert.equal(summarizeExperience(positions, NOW).total_years, Math.round((days.size / 365.25) * 10) / 10);
      }),
      { numRuns: 200 },
    );
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
