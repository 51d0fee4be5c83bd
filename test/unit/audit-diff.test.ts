import { strict as assert } from 'node:assert';
import { auditChange, DIFF_LIMITS, PERSONAL } from '../../src/features/audit/domain/audit-diff';
import { REDACTED } from '../../src/features/audit/domain/redact';

describe('audit: the field-level change an event records', () => {
  it('keeps only the changed paths, flattened, with both sides', () => {
    const before = { id: 'we_1', description: 'old', enabled: true, events: ['a'], settings: { reminders: { enabled: true, hours: 24 } }, updated_at: '1' };
    const after = { ...before, description: 'new', events: ['a', 'b'], settings: { reminders: { enabled: false, hours: 24 } }, updated_at: '2' };
    assert.deepEqual(auditChange(before, after), {
      before: { description: 'old', events: ['a'], 'settings.reminders.enabled': true },
      after: { description: 'new', events: ['a', 'b'], 'settings.reminders.enabled': false },
    });
    assert.equal(auditChange(before, { ...before, updated_at: '3' }), null, 'a timestamp alone is no change');
    assert.deepEqual(auditChange(null, { id: 'we_2', url: 'https://x' }), { before: {}, after: { id: 'we_2', url: 'https://x' } });
  });

  it('redacts secrets and personal data wherever they sit, and bounds the size', () => {
    const change = auditChange(
      { id: 'conn_1', credentials: { user: 'a' }, settings: { from_email: 'a@x.example' } },
      { id: 'conn_1', credentials: { user: 'b' }, secret: 'whsec_abc', token: 'x', settings: { from_email: 'b@x.example' }, label: 'sk_live_1' },
    )!;
    assert.deepEqual(change.after, { credentials: REDACTED, secret: REDACTED, token: REDACTED, label: REDACTED, 'settings.from_email': PERSONAL });
    assert.ok(!JSON.stringify(change).includes('@x.example') && !JSON.stringify(change).includes('whsec_'));
    const wide = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`f${i}`, 'v'.repeat(500)]));
    const bounded = auditChange({}, wide)!;
    assert.equal(bounded.truncated, true);
    assert.ok(Object.keys(bounded.after).length <= DIFF_LIMITS.paths);
    assert.ok(JSON.stringify(bounded).length <= DIFF_LIMITS.bytes + 100);
  });
});
