/** The audit chain: intact chains verify; any change to any field of any event, or any removed event, is detected. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { eventHash, verifyChain, canonicalJson } from '../../src/features/audit/domain/audit-chain';
import { GENESIS_HASH, type AuditEvent } from '../../src/features/audit/domain/audit-event';
import { redact, REDACTED } from '../../src/features/audit/domain/redact';

const input = fc.record({
  actor: fc.string({ minLength: 1, maxLength: 12 }),
  action: fc.constantFrom('rotateApiKey', 'createWebhookEndpoint', 'createCandidateErasure', 'hook:interview.scheduled'),
  status: fc.constantFrom(200, 201, 202, 400, 404),
  target: fc.string({ maxLength: 30 }),
  after: fc.jsonValue(),
});

function chainOf(inputs: { actor: string; action: string; status: number; target: string; after: unknown }[]): AuditEvent[] {
  const events: AuditEvent[] = [];
  let previousHash = GENESIS_HASH;
  inputs.forEach((i, n) => {
    const unhashed = {
      id: `aud_${n}`,
      chain: 'org_x',
      sequence: n + 1,
      organizationId: 'org_x',
      actorType: 'organization_key' as const,
      actor: i.actor,
      ip: '127.0.0.1',
      requestId: `req_${n}`,
      action: i.action,
      method: 'POST',
      target: i.target,
      status: i.status,
      before: null,
      after: i.after ?? null,
      at: new Date(1_800_000_000_000 + n * 1000),
      previousHash,
    };
    const event = { ...unhashed, hash: eventHash(unhashed) };
    events.push(event);
    previousHash = event.hash;
  });
  return events;
}

describe('audit: the hash chain', () => {
  it('an untouched chain verifies', () => {
    fc.assert(fc.property(fc.array(input, { minLength: 1, maxLength: 8 }), (inputs) => assert.deepEqual(verifyChain(chainOf(inputs)), [])));
  });

  it('changing any field of any event is detected', () => {
    const fields = ['actor', 'action', 'status', 'target', 'after', 'ip', 'requestId', 'at'] as const;
    fc.assert(
      fc.property(fc.array(input, { minLength: 1, maxLength: 8 }), fc.nat(), fc.constantFrom(...fields), (inputs, pick, field) => {
        const events = chainOf(inputs);
        const victim = events[pick % events.length]!;
        const changed: Record<string, unknown> = { ...victim };
        changed[field] =
          field === 'status'
            ? victim.status + 1
            : field === 'at'
              ? new Date(victim.at.getTime() + 1)
              : field === 'after'
                ? { tampered: victim.after }
                : `${String(victim[field])}x`;
        events[pick % events.length] = changed as unknown as AuditEvent;
        assert.ok(verifyChain(events).length > 0, `${field} changed undetected`);
      }),
    );
  });

  it('removing any event is detected, the newest ones by the chain head', () => {
    fc.assert(
      fc.property(fc.array(input, { minLength: 1, maxLength: 8 }), fc.nat(), (inputs, pick) => {
        const events = chainOf(inputs);
        const last = events.at(-1)!;
        const head = { lastSequence: last.sequence, lastHash: last.hash };
        assert.deepEqual(verifyChain(events, head), []);
        events.splice(pick % events.length, 1);
        assert.ok(verifyChain(events, head).length > 0);
      }),
    );
  });

  it('hashes canonical JSON: key order does not matter, values do', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: null } }), canonicalJson({ a: { c: null, d: [1, { e: 3, f: 2 }] }, b: 1 }));
    assert.notEqual(canonicalJson({ a: 1 }), canonicalJson({ a: '1' }));
  });

  it('redacts secrets by key and by shape, at any depth', () => {
    assert.deepEqual(redact({ url: 'https://x', secret: 'whsec_abc', nested: [{ api_key: 'x', note: 'hik_123' }] }), {
      url: 'https://x',
      secret: REDACTED,
      nested: [{ api_key: REDACTED, note: REDACTED }],
    });
  });
});
