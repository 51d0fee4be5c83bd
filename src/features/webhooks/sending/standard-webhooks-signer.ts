/**
 * Signatures per Standard Webhooks: `v1,` + base64 HMAC-SHA256 over `id.timestamp.body`,
 * keyed by the secret after `whsec_` (base64). Computed with node:crypto (native) rather
 * than the `standardwebhooks` package's pure-JavaScript SHA-256, which was a visible part
 * of every delivery's CPU; the reference implementation verifies what we sign in the
 * tests (test/unit/webhooks-signer.test.ts, and the receivers of the integration tests).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { WebhookSigner } from '../domain/ports';

const PREFIX = 'whsec_';

export class StandardWebhooksSigner implements WebhookSigner {
  /** Decoded keys by secret: decoded once, not per delivery. */
  private readonly keys = new Map<string, Buffer>();

  newSecret(): string {
    return `${PREFIX}${randomBytes(32).toString('base64')}`;
  }

  sign(secret: string, messageId: string, timestamp: Date, body: string): string {
    const digest = createHmac('sha256', this.key(secret))
      .update(`${messageId}.${Math.floor(timestamp.getTime() / 1000)}.${body}`)
      .digest('base64');
    return `v1,${digest}`;
  }

  private key(secret: string): Buffer {
    let key = this.keys.get(secret);
    if (!key) {
      key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
      if (key.length === 0) throw new Error('A webhook signing secret must not be empty');
      // A handful of live secrets per process; bounded so rotations cannot grow it forever.
      if (this.keys.size > 1000) this.keys.clear();
      this.keys.set(secret, key);
    }
    return key;
  }
}
