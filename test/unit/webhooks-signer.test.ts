/** Our Standard Webhooks signer (node:crypto) against the reference implementation (`standardwebhooks`). */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { StandardWebhooksSigner } from '../../src/features/webhooks/sending/standard-webhooks-signer';

describe('webhook signer', () => {
  const signer = new StandardWebhooksSigner();

  it('signs exactly as the reference implementation, and the reference verifies it', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.string({ unit: 'grapheme', maxLength: 300 }),
        (key, id, seconds, body) => {
          const secret = `whsec_${Buffer.from(key).toString('base64')}`;
          const at = new Date(seconds * 1000 + 999);
          const reference = new Webhook(secret);
          const signature = signer.sign(secret, id, at, body);
          assert.equal(signature, reference.sign(id, at, body));
          const headers = { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signature };
          // verify() also checks the timestamp's age: give it its own clock's "now".
          if (Math.abs(Date.now() / 1000 - seconds) < 300 && body.length > 0) assert.doesNotThrow(() => reference.verify(body, headers));
        },
      ),
    );
  });

  it('a new secret is whsec_ and 32 random bytes; a signature verifies with it now and not with another secret', () => {
    const secret = signer.newSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const now = new Date();
    const body = JSON.stringify({ id: 'evt_1', type: 'test', data: { name: 'Zoë 🙂' } });
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': signer.sign(secret, 'evt_1', now, body),
    };
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.throws(() => new Webhook(signer.newSecret()).verify(body, headers));
  });
});
