/**
 * Pure parts of candidates out: the sourcing score (docs/sourcing.md), invitation tokens,
 * the export stream's grouping (one HR Open document per candidate, across batches) and the
 * CSV's defused formulas.
 */
import { strict as assert } from 'node:assert';
import { parse } from 'csv-parse/sync';
import { exportChunks } from '../../src/features/candidate-exports/domain/export-stream';
import type { ExportRecord } from '../../src/features/candidate-exports/domain/export-record';
import { nextRunAfter } from '../../src/features/candidate-exports/domain/export-schedule';
import { checkedCredentialNames, rankCandidates, type PoolCandidate } from '../../src/features/sourcing/domain/candidate-ranking';
import { InvitationTokens } from '../../src/features/sourcing/domain/invitation-tokens';

const candidate = (id: string, extra: Partial<PoolCandidate> = {}): PoolCandidate => ({
  profileUserId: id,
  name: id,
  headline: null,
  location: null,
  skills: [],
  credentials: [],
  totalYears: 0,
  lastApplicationId: `app_${id}`,
  lastListingId: 'lst_1',
  lastAppliedAt: new Date('2026-11-01T00:00:00Z'),
  ...extra,
});

const record = (profileUserId: string, n: number, extra: Partial<ExportRecord> = {}): ExportRecord => ({
  applicationId: `app_${profileUserId}_${n}`,
  listingId: 'lst_1',
  status: 'submitted',
  source: null,
  appliedAt: new Date('2026-11-01T00:00:00Z'),
  profileUserId,
  candidateName: 'Ada Lovelace',
  candidateHeadline: null,
  email: null,
  profileUrl: 'https://profiles.example.com/ada',
  skills: [],
  credentials: [],
  experience: { total_years: 1, current_title: null, current_company: null },
  workHistory: [],
  ...extra,
});

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const chunk of chunks) out += chunk;
  return out;
}

async function* from<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

describe('sourcing: ranking', () => {
  it('scores verified skills 10, verified credentials 15, a year beyond min_years 1 (at most 10); unverified ones count nothing', () => {
    const ranked = rankCandidates(
      [
        candidate('usr_a', {
          skills: ['TypeScript', 'Go'],
          credentials: [
            { title: 'AWS Certified Developer', issuer: 'AWS', verified: true, issued_at: '2023-01-01' },
            { title: 'CKA', issuer: 'CNCF', verified: false, issued_at: '2023-01-01' },
          ],
          totalYears: 30,
        }),
        candidate('usr_b', { skills: ['typescript'], totalYears: 4.9 }),
        candidate('usr_c', { skills: ['Python'], totalYears: 20 }),
      ],
      { skills: ['TypeScript', 'go'], credentials: ['aws certified', 'CKA'], minYears: 2, limit: 10 },
    );
    assert.deepEqual(
      ranked.map((r) => [r.profileUserId, r.score]),
      [
        ['usr_a', 10 + 10 + 15 + 10],
        ['usr_b', 10 + 2],
      ],
    );
    assert.deepEqual(ranked[0]!.matchedCredentials, ['AWS Certified Developer']);
  });

  it('filters by location and min_years; ties go to the most recent application', () => {
    const older = candidate('usr_old', { skills: ['Go'], location: 'Lyon, France', totalYears: 5 });
    const newer = candidate('usr_new', { skills: ['Go'], location: 'LYON', totalYears: 5, lastAppliedAt: new Date('2026-11-20T00:00:00Z') });
    const elsewhere = candidate('usr_far', { skills: ['Go'], location: 'Remote', totalYears: 5 });
    const junior = candidate('usr_jr', { skills: ['Go'], location: 'Lyon', totalYears: 1 });
    assert.deepEqual(
      rankCandidates([older, newer, elsewhere, junior], { skills: ['Go'], credentials: [], location: 'lyon', minYears: 2, limit: 10 }).map(
        (r) => r.profileUserId,
      ),
      ['usr_new', 'usr_old'],
    );
    assert.equal(rankCandidates([older, newer], { skills: [], credentials: [], limit: 1 }).length, 1);
  });

  it("where the application has a credential check, only what it verified counts: a provider's verified flag does not, a reviewed document does", () => {
    const evidence = (verification: 'verified' | 'unverified', types: string[]) => ({
      source: verification === 'verified' ? ('document_review' as const) : ('self_reported' as const),
      credential_id: null,
      issuer: 'did:web:rn.board.example',
      types,
      valid_from: null,
      valid_until: null,
      verification,
    });
    const check = {
      status: 'not_met' as const,
      checked_at: '2026-11-28T00:00:00.000Z',
      requirements: [
        { requirement: 'rn_license', status: 'met' as const, reason: null, evidence: evidence('verified', ['VerifiableCredential', 'License']) },
        {
          requirement: 'aws_pro',
          status: 'unverified' as const,
          reason: 'self_reported' as const,
          evidence: evidence('unverified', ['AWS Certified Developer']),
        },
        { requirement: 'food_handler', status: 'missing' as const, reason: 'no_matching_credential' as const, evidence: null },
      ],
    };
    assert.deepEqual(checkedCredentialNames(check), ['License', 'rn license']);
    const awsFlagged = [{ title: 'AWS Certified Developer', issuer: 'AWS', verified: true, issued_at: '2023-01-01' }];
    const query = { skills: [], credentials: ['aws certified', 'rn license'], limit: 10 };
    const [checked] = rankCandidates([candidate('usr_a', { credentials: awsFlagged, checkedCredentials: checkedCredentialNames(check) })], query);
    assert.deepEqual([checked!.matchedCredentials, checked!.credentialBasis], [['rn license'], 'credential_check']);
    const [flagged] = rankCandidates([candidate('usr_a', { credentials: awsFlagged })], query);
    assert.deepEqual([flagged!.matchedCredentials, flagged!.credentialBasis], [['AWS Certified Developer'], 'provider_flag']);
  });
});

describe('sourcing: invitation tokens', () => {
  const tokens = new InvitationTokens(Buffer.alloc(32, 7));
  const subject = { organizationId: 'org_a', listingId: 'lst_1', profileUserId: 'usr_ada', invitationId: 'sinv_abc' };
  it('verify only for the organization, listing and candidate they were issued for', () => {
    const token = tokens.issue(subject);
    assert.ok(InvitationTokens.looksLikeOne(token));
    assert.equal(tokens.invitationOf(subject, token), 'sinv_abc');
    assert.equal(tokens.invitationOf({ ...subject, profileUserId: 'usr_grace' }, token), undefined);
    assert.equal(tokens.invitationOf({ ...subject, listingId: 'lst_2' }, token), undefined);
    assert.equal(tokens.invitationOf(subject, token.replace('sinv_abc', 'sinv_abd')), undefined);
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    assert.equal(tokens.invitationOf(subject, tampered), undefined);
  });
});

describe('candidate exports: the stream', () => {
  it('writes one HR Open document per candidate, a candidate whose applications span batches kept whole', async () => {
    const records = [record('usr_a', 1), ...Array.from({ length: 1200 }, (_, i) => record('usr_b', i)), record('usr_c', 1)];
    const documents = JSON.parse(await text(exportChunks(from(records), 'hr_open_json')));
    assert.deepEqual(
      documents.map((d: any) => [d.documentId.value, d.profiles.length]),
      [
        ['usr_a', 1],
        ['usr_b', 1200],
        ['usr_c', 1],
      ],
    );
    assert.deepEqual(JSON.parse(await text(exportChunks(from([]), 'hr_open_json'))), []);
  });

  it('writes CSV with a header, one row per application and formulas defused', async () => {
    const csv = await text(exportChunks(from([record('usr_a', 1, { candidateName: '=HYPERLINK("x")', skills: ['Go', 'SQL'] })]), 'csv'));
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.candidate_name, `'=HYPERLINK("x")`);
    assert.equal(rows[0]!.verified_skills, 'Go; SQL');
  });

  it('schedules the next delivery one cadence later', () => {
    assert.equal(nextRunAfter('daily', new Date('2026-11-28T02:00:00Z')).toISOString(), '2026-11-29T02:00:00.000Z');
    assert.equal(nextRunAfter('weekly', new Date('2026-11-28T02:00:00Z')).toISOString(), '2026-12-05T02:00:00.000Z');
  });
});
