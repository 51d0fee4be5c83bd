/**
 * The JSON export in the shape of HR Open Standards Recruiting 4.x `CandidateType`
 * (docs/candidate-exports.md names each field we fill): one document per candidate, with
 * `person` (name, e-mail when given), and one `profiles[]` entry per application
 * (`CandidateProfileType`: the listing as `associatedPositionOpenings`, verified skills as
 * `qualifications`, credentials as `certifications`, positions as `employment`). Ids carry
 * `schemeId`/`schemeAgencyId` as HR Open's IdentifierType does. The file is a JSON array of
 * these documents, written one candidate at a time.
 */
import type { ExportRecord } from './export-record';

const AGENCY = 'hiring-integrations';
const id = (value: string, schemeId: string) => ({ value, schemeId, schemeAgencyId: AGENCY });

export function candidateProfile(r: ExportRecord) {
  return {
    profileId: id(r.applicationId, 'application'),
    profileName: r.candidateHeadline ?? undefined,
    applyDate: r.appliedAt.toISOString(),
    associatedPositionOpenings: [
      { positionOpeningId: id(r.listingId, 'listing'), candidateStatus: { name: r.status }, ...(r.source ? { source: r.source } : {}) },
    ],
    qualifications: r.skills.map((name) => ({ competencyName: name, verified: true })),
    certifications: r.credentials.map((c) => ({
      name: c.title,
      issuingAuthority: { name: c.issuer },
      effectiveTimePeriod: { validFrom: c.issued_at },
      verified: c.verified,
    })),
    employment: r.workHistory.map((p) => ({
      organization: { name: p.company },
      positionHistories: [{ title: p.title, start: p.start_date, ...(p.end_date ? { end: p.end_date } : { current: true }) }],
      ...(p.verified === undefined ? {} : { verified: p.verified }),
    })),
    experienceSummary: { totalYears: r.experience.total_years },
  };
}

/** A candidate and every exported application of theirs (consecutive records of one profile_user_id). */
export function candidateDocument(records: readonly ExportRecord[]) {
  const latest = records[records.length - 1]!;
  const name = latest.candidateName.trim();
  const space = name.lastIndexOf(' ');
  return {
    documentId: id(latest.profileUserId, 'candidate'),
    person: {
      id: id(latest.profileUserId, 'candidate'),
      name: { formattedName: name, ...(space > 0 ? { given: name.slice(0, space), family: name.slice(space + 1) } : {}) },
      ...(latest.email ? { communication: { email: [{ address: latest.email }] } } : {}),
    },
    profiles: records.map(candidateProfile),
    uri: latest.profileUrl,
  };
}
