/**
 * Credential checks, without a database: real VC-JWTs issued with jose (Open Badges 3.0,
 * did:key, did:jwk, did:web served locally with a Bitstring Status List) examined and
 * matched against requirements — a valid one is met; tampered, expired, revoked,
 * untrusted-issuer ones are not, each with its reason — and the matcher's rules as properties.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { credentialRequirementSchema, type CredentialRequirement } from '../../src/features/listings/domain/credential-requirements';
import { matchRequirement, matchRequirements, type RequirementStatus } from '../../src/features/credential-checks/domain/match-requirements';
import type { PresentedCredential } from '../../src/features/credential-checks/domain/presented-credential';
import { DidResolver, didWebUrl } from '../../src/features/credential-checks/verification/did-resolver';
import { HttpDocumentFetcher } from '../../src/features/credential-checks/verification/document-fetcher';
import { selfReported, VcJwtExaminer } from '../../src/features/credential-checks/verification/vc-jwt-examiner';
import { DataIntegrityExaminer } from '../../src/features/credential-checks/verification/data-integrity-examiner';
import { CachingDocumentFetcher } from '../../src/features/credential-checks/verification/caching-document-fetcher';
import { pinnedNetwork } from '../../src/platform/network/pinned-network';
import { didJwkIssuer, didKeyIssuer, LocalIssuerServer, openBadge, signDataIntegrity, signVcJwt, type IssuerKey } from '../helpers/credential-issuer';

const NOW = new Date('2026-11-26T09:00:00Z');
const DAY = 86_400_000;
const days = (n: number) => new Date(NOW.getTime() + n * DAY);
const requirement = (fields: Partial<CredentialRequirement> = {}): CredentialRequirement =>
  credentialRequirementSchema.parse({ key: 'rn_license', label: 'RN license', credential_type: 'License', ...fields });

describe('credential checks: VC-JWT examination and matching', function () {
  this.timeout(20_000);
  const fetcher = new HttpDocumentFetcher({ allowLoopbackHttp: true, timeoutMs: 2000 });
  const examiner = new VcJwtExaminer(new DidResolver(fetcher), fetcher);
  let board: LocalIssuerServer;
  let stranger: IssuerKey;
  const examine = (credential: string) => examiner.examine({ format: 'vc+jwt', credential }, NOW);
  const license = (issuer: IssuerKey, options: { validUntil?: Date; index?: number; validFrom?: Date } = {}) =>
    signVcJwt(
      issuer,
      openBadge(issuer, {
        achievementType: 'License',
        name: 'Registered Nurse',
        validFrom: options.validFrom ?? days(-365),
        validUntil: options.validUntil ?? days(365),
        ...(options.index !== undefined ? { status: { index: options.index, url: board.statusListUrl } } : {}),
      }),
    );

  before(async () => {
    board = await new LocalIssuerServer().start();
    stranger = await didKeyIssuer();
  });
  after(() => board?.close());

  it('meets a requirement with a valid Open Badges 3.0 license from a trusted did:web issuer, status checked', async () => {
    const credential = await examine(await license(board.issuer, { index: 7 }));
    assert.deepEqual(credential.verification, { status: 'verified', reason: null });
    assert.deepEqual(credential.types, ['VerifiableCredential', 'OpenBadgeCredential', 'License']);
    const outcome = matchRequirement(requirement({ issuers: [board.issuer.did], min_validity_days: 30 }), [credential], NOW);
    assert.equal(outcome.status, 'met');
    assert.equal(outcome.reason, null);
    assert.equal(outcome.evidence?.issuer, board.issuer.did);
    assert.equal(outcome.evidence?.verification, 'verified');
  });

  it('verifies did:key and did:jwk issuers from the identifier alone', async () => {
    const jwkIssuer = await didJwkIssuer();
    for (const issuer of [stranger, jwkIssuer]) {
      const credential = await examine(await license(issuer));
      assert.equal(credential.verification.status, 'verified', issuer.did);
      assert.equal(matchRequirement(requirement({ issuers: [issuer.did] }), [credential], NOW).status, 'met');
    }
  });

  it('refuses a tampered credential: signature_invalid, whatever it claims', async () => {
    const [header, payload, signature] = (await license(board.issuer)).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    claims.validUntil = days(3650).toISOString();
    const tampered = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
    const credential = await examine(tampered);
    assert.deepEqual(credential.verification, { status: 'invalid', reason: 'signature_invalid' });
    const outcome = matchRequirement(requirement({ issuers: [board.issuer.did] }), [credential], NOW);
    assert.deepEqual([outcome.status, outcome.reason], ['unverified', 'signature_invalid']);
  });

  it('a credential signed by one key and claiming another issuer is not verified', async () => {
    const forged = await signVcJwt(
      { ...stranger, kid: `${board.issuer.did}#key-1` },
      openBadge(board.issuer, { achievementType: 'License', name: 'RN', validFrom: days(-1) }),
    );
    assert.deepEqual((await examine(forged)).verification, { status: 'invalid', reason: 'signature_invalid' });
  });

  it('an expired credential is expired; one valid for less than the minimum is too', async () => {
    const expired = await examine(await license(board.issuer, { validUntil: days(-1) }));
    assert.equal(expired.verification.status, 'verified', 'a genuine credential, only past its date');
    const outcome = matchRequirement(requirement(), [expired], NOW);
    assert.deepEqual([outcome.status, outcome.reason], ['expired', 'credential_expired']);
    const short = await examine(await license(board.issuer, { validUntil: days(10) }));
    const shortOutcome = matchRequirement(requirement({ min_validity_days: 30 }), [short], NOW);
    assert.deepEqual([shortOutcome.status, shortOutcome.reason], ['expired', 'validity_below_minimum']);
  });

  it('a revoked credential (its bit set in the issuer’s Bitstring Status List) is not met: credential_revoked', async () => {
    board.revoke(1234);
    const credential = await examine(await license(board.issuer, { index: 1234 }));
    assert.deepEqual(credential.verification, { status: 'invalid', reason: 'credential_revoked' });
    const outcome = matchRequirement(requirement(), [credential], NOW);
    assert.deepEqual([outcome.status, outcome.reason], ['unverified', 'credential_revoked']);
    assert.equal((await examine(await license(board.issuer, { index: 1235 }))).verification.status, 'verified', 'its neighbour is not revoked');
  });

  it('a status list that cannot be read leaves the credential unverified (status_unavailable), never verified', async () => {
    board.statusListFailure = 503;
    try {
      const credential = await examine(await license(board.issuer, { index: 9 }));
      assert.deepEqual(credential.verification, { status: 'unverified', reason: 'status_unavailable' });
    } finally {
      board.statusListFailure = null;
    }
  });

  it('an issuer the requirement does not trust: issuer_untrusted, even with a valid proof', async () => {
    const credential = await examine(await license(stranger));
    assert.equal(credential.verification.status, 'verified');
    const outcome = matchRequirement(requirement({ issuers: [board.issuer.did] }), [credential], NOW);
    assert.deepEqual([outcome.status, outcome.reason], ['unverified', 'issuer_untrusted']);
  });

  it('not yet valid, malformed, unresolvable issuers and unsupported DID methods each say so', async () => {
    assert.equal((await examine(await license(board.issuer, { validFrom: days(2) }))).verification.reason, 'not_yet_valid');
    assert.equal((await examine('not.a.jwt')).verification.reason, 'credential_malformed');
    const ghost = { ...stranger, did: 'did:web:127.0.0.1%3A1', kid: 'did:web:127.0.0.1%3A1#key-1' };
    assert.equal(
      (await examine(await signVcJwt(ghost, openBadge(ghost, { achievementType: 'License', name: 'x', validFrom: days(-1) })))).verification.reason,
      'issuer_unresolvable',
    );
    const ethr = { ...stranger, did: 'did:ethr:0xabc', kid: 'did:ethr:0xabc#controller' };
    assert.equal(
      (await examine(await signVcJwt(ethr, openBadge(ethr, { achievementType: 'License', name: 'x', validFrom: days(-1) })))).verification.reason,
      'issuer_unresolvable',
    );
  });

  it('a self-reported credential meets only a requirement that does not insist on a verified source', () => {
    const claimed = selfReported({ format: 'self_reported', title: 'Food handler card', issuer: 'ServSafe' });
    const strict = requirement({ key: 'food', label: 'Food handler card', credential_type: 'FoodHandlerCard' });
    assert.deepEqual([matchRequirement(strict, [claimed], NOW).status, matchRequirement(strict, [claimed], NOW).reason], ['unverified', 'self_reported']);
    assert.equal(matchRequirement({ ...strict, verified_source_required: false }, [claimed], NOW).status, 'met');
  });

  it('in production, fetches issuer documents over https from public addresses only', async () => {
    const production = new HttpDocumentFetcher({ allowLoopbackHttp: false, network: pinnedNetwork({ allowedInternalHosts: [] }) });
    await assert.rejects(production.text('https://10.1.2.3/.well-known/did.json'), /not public/);
    await assert.rejects(production.text('https://[fd00::1]/.well-known/did.json'), /not public/);
    await assert.rejects(production.text(board.statusListUrl), /loopback/);
    await assert.rejects(production.text('http://issuer.example/.well-known/did.json'), /only https/);
  });

  it('maps did:web identifiers to their document URLs', () => {
    assert.equal(didWebUrl('did:web:w3c-ccg.github.io'), 'https://w3c-ccg.github.io/.well-known/did.json');
    assert.equal(didWebUrl('did:web:example.com%3A3000:user:alice'), 'https://example.com:3000/user/alice/did.json');
    assert.throws(() => didWebUrl('did:web:example.com:..'));
  });
});

describe('credential checks: Data Integrity proofs (eddsa-rdfc-2022)', function () {
  this.timeout(20_000);
  const fetcher = new HttpDocumentFetcher({ allowLoopbackHttp: true, timeoutMs: 2000 });
  const dids = new DidResolver(fetcher);
  const jwt = new VcJwtExaminer(dids, fetcher);
  const examiner = new DataIntegrityExaminer(dids, fetcher, (token, issuer) => jwt.verifiedPayload(token, issuer));
  let board: LocalIssuerServer;
  let keyIssuer: IssuerKey;
  const examine = (credential: Record<string, unknown>) => examiner.examine({ format: 'vc+ld+json', credential }, NOW);
  const license = (issuer: IssuerKey, options: { validUntil?: Date; index?: number } = {}) =>
    signDataIntegrity(
      issuer,
      openBadge(issuer, {
        achievementType: 'License',
        name: 'Registered Nurse',
        validFrom: days(-365),
        validUntil: options.validUntil ?? days(365),
        ...(options.index !== undefined ? { status: { index: options.index, url: board.statusListUrl } } : {}),
      }),
    );

  before(async () => {
    board = await new LocalIssuerServer().start();
    keyIssuer = await didKeyIssuer();
  });
  after(() => board?.close());

  it('verifies an Open Badges 3.0 license issued with @digitalbazaar/vc: did:web (status list read), did:key and did:jwk issuers', async () => {
    const signed = await license(board.issuer, { index: 3 });
    assert.deepEqual(
      [(signed.proof as { cryptosuite: string }).cryptosuite, (signed.proof as { type: string }).type],
      ['eddsa-rdfc-2022', 'DataIntegrityProof'],
    );
    const credential = await examine(signed);
    assert.deepEqual(credential.verification, { status: 'verified', reason: null });
    assert.equal(credential.source, 'data_integrity');
    assert.deepEqual(credential.types, ['VerifiableCredential', 'OpenBadgeCredential', 'License']);
    assert.equal(matchRequirement(requirement({ issuers: [board.issuer.did], min_validity_days: 30 }), [credential], NOW).status, 'met');
    const fromKey = await examine(await license(keyIssuer));
    assert.deepEqual(fromKey.verification, { status: 'verified', reason: null });
    assert.equal(matchRequirement(requirement({ issuers: [keyIssuer.did] }), [fromKey], NOW).status, 'met');
    const jwkIssuer = await didJwkIssuer();
    assert.deepEqual((await examine(await license(jwkIssuer))).verification, { status: 'verified', reason: null }, 'did:jwk (Ed25519) too');
  });

  it('a changed field breaks the proof (signature_invalid); so does a signer who is not the issuer', async () => {
    const signed = await license(board.issuer);
    const tampered = structuredClone(signed) as { validUntil: string };
    tampered.validUntil = days(3650).toISOString();
    assert.deepEqual((await examine(tampered)).verification, { status: 'invalid', reason: 'signature_invalid' });
    const renamed = structuredClone(signed) as { credentialSubject: { achievement: { achievementType: string } } };
    renamed.credentialSubject.achievement.achievementType = 'Certificate';
    assert.deepEqual((await examine(renamed)).verification, { status: 'invalid', reason: 'signature_invalid' });
    // The stranger signs a credential naming the board as issuer with its own key: the key is not the issuer's.
    const forged = await signDataIntegrity(keyIssuer, openBadge(board.issuer, { achievementType: 'License', name: 'RN', validFrom: days(-1) }));
    assert.deepEqual((await examine(forged)).verification, { status: 'invalid', reason: 'issuer_mismatch' });
  });

  it('expired is expired (a genuine proof); revoked in the issuer’s list is credential_revoked; a list that cannot be read is status_unavailable', async () => {
    const expired = await examine(await license(board.issuer, { validUntil: days(-1) }));
    assert.equal(expired.verification.status, 'verified');
    const outcome = matchRequirement(requirement(), [expired], NOW);
    assert.deepEqual([outcome.status, outcome.reason], ['expired', 'credential_expired']);
    board.revoke(77);
    assert.deepEqual((await examine(await license(board.issuer, { index: 77 }))).verification, { status: 'invalid', reason: 'credential_revoked' });
    board.statusListFailure = 503;
    try {
      assert.deepEqual((await examine(await license(board.issuer, { index: 78 }))).verification, { status: 'unverified', reason: 'status_unavailable' });
    } finally {
      board.statusListFailure = null;
    }
  });

  it('nothing is fetched: an unknown context is context_unavailable, another cryptosuite or no proof proof_unsupported, an unknown DID method issuer_unresolvable', async () => {
    const signed = await license(keyIssuer);
    const foreignContext = { ...signed, '@context': [...(signed['@context'] as string[]), 'https://contexts.example/extra/v1'] };
    assert.deepEqual((await examine(foreignContext)).verification, { status: 'unverified', reason: 'context_unavailable' });
    const otherSuite = { ...signed, proof: { ...(signed.proof as object), cryptosuite: 'ecdsa-rdfc-2019' } };
    assert.deepEqual((await examine(otherSuite)).verification, { status: 'unverified', reason: 'proof_unsupported' });
    const { proof: _proof, ...unsecured } = signed;
    assert.deepEqual((await examine(unsecured)).verification, { status: 'unverified', reason: 'proof_unsupported' });
    const ethr = { ...keyIssuer, did: 'did:ethr:0xabc', kid: 'did:ethr:0xabc#controller' };
    const fromEthr = await signDataIntegrity(ethr, openBadge(ethr, { achievementType: 'License', name: 'x', validFrom: days(-1) }));
    assert.deepEqual((await examine(fromEthr)).verification, { status: 'invalid', reason: 'issuer_unresolvable' });
    assert.equal((await examine({ type: ['VerifiableCredential'] })).verification.reason, 'credential_malformed');
  });
});

describe('credential checks: the re-verification sweep fetches each issuer document once a while', () => {
  it('answers a fetched document again until it is older than the TTL; a failure is not remembered', async () => {
    let now = 0;
    const calls: string[] = [];
    let fail = true;
    const inner = {
      text: async (url: string) => {
        calls.push(url);
        if (url.endsWith('/down') && fail) throw new Error('answered 503');
        return `{"url":"${url}"}`;
      },
      json: async () => ({}),
    };
    const fetcher = new CachingDocumentFetcher(inner, 1000, () => now);
    assert.deepEqual(await fetcher.json('https://a.example/list'), { url: 'https://a.example/list' });
    await fetcher.text('https://a.example/list');
    assert.equal(calls.length, 1, 'the second read is the remembered one');
    now = 1000;
    await fetcher.text('https://a.example/list');
    assert.equal(calls.length, 2, 'older than the TTL: fetched anew');
    await assert.rejects(fetcher.text('https://a.example/down'), /503/);
    fail = false;
    assert.equal(await fetcher.text('https://a.example/down'), '{"url":"https://a.example/down"}', 'a failure is asked again');
  });
});

describe('credential checks: matcher properties', () => {
  const RANK: Record<RequirementStatus, number> = { met: 4, pending: 3, expired: 2, unverified: 1, missing: 0 };
  const credentialArb: fc.Arbitrary<PresentedCredential> = fc.record({
    source: fc.constantFrom('vc_jwt' as const, 'self_reported' as const),
    id: fc.constant(null),
    types: fc.subarray(['VerifiableCredential', 'License', 'FoodHandlerCard', 'UnionMembership']),
    issuer: fc.constantFrom('did:web:a.example', 'did:web:b.example', 'ServSafe'),
    name: fc.constant(null),
    validFrom: fc.constant(null),
    validUntil: fc.option(fc.integer({ min: -400, max: 400 }).map(days), { nil: null }),
    verification: fc.constantFrom(
      { status: 'verified' as const, reason: null },
      { status: 'unverified' as const, reason: 'self_reported' as const },
      { status: 'invalid' as const, reason: 'signature_invalid' as const },
    ),
  });
  const requirementArb = fc
    .record({
      credential_type: fc.constantFrom('License', 'FoodHandlerCard', 'UnionMembership'),
      issuers: fc.subarray(['did:web:a.example', 'did:web:b.example']),
      min_validity_days: fc.integer({ min: 0, max: 90 }),
      verified_source_required: fc.boolean(),
    })
    .map((r) => requirement(r));

  it('met only with a matching, trusted, valid-long-enough credential whose proof checked out (or any, when self-report is allowed)', () => {
    fc.assert(
      fc.property(requirementArb, fc.array(credentialArb, { maxLength: 6 }), (req, credentials) => {
        const outcome = matchRequirement(req, credentials, NOW);
        if (outcome.status !== 'met') return;
        const e = outcome.evidence!;
        assert.ok(e.types.includes(req.credential_type));
        assert.notEqual(e.verification, 'invalid');
        if (req.verified_source_required) assert.equal(e.verification, 'verified');
        if (req.issuers.length) assert.ok(req.issuers.includes(e.issuer));
        if (e.valid_until) assert.ok(new Date(e.valid_until).getTime() >= NOW.getTime() + req.min_validity_days * DAY);
      }),
      { numRuns: 300 },
    );
  });

  it('presenting one more credential never makes an outcome worse; no credentials is missing', () => {
    fc.assert(
      fc.property(requirementArb, fc.array(credentialArb, { maxLength: 5 }), credentialArb, (req, credentials, extra) => {
        const before = matchRequirement(req, credentials, NOW);
        const after = matchRequirement(req, [...credentials, extra], NOW);
        assert.ok(RANK[after.status] >= RANK[before.status]);
        assert.equal(matchRequirement(req, [], NOW).status, 'missing');
      }),
      { numRuns: 300 },
    );
  });

  it('the summary is met only when every requirement is, pending only while the rest is met', () => {
    const food = requirement({ key: 'food', credential_type: 'FoodHandlerCard' });
    const lic = requirement();
    assert.equal(matchRequirements([lic, food], [], NOW, new Set(['food'])).status, 'not_met');
    assert.equal(matchRequirements([food], [], NOW, new Set(['food'])).status, 'pending');
    assert.equal(matchRequirements([], [], NOW).status, 'met');
  });
});
