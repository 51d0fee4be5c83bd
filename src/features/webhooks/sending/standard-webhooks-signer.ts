/** Signatures per Standard Webhooks, through its reference implementation (the `standardwebhooks` package). */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { WebhookSigner } from '../domain/ports';

export class StandardWebhooksSigner implements WebhookSigner {
  private readonly signers = new Map<string, Webhook>();

  newSecret(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }

  sign(secret: string, messageId: string, timestamp: Date, body: string): string {
    let signer = this.signers.get(secret);
    if (!signer) {
      signer = new Webhook(secret);
      // A handful of live secrets per process; bounded so rotations cannot grow it forever.
      if (this.signers.size > 1000) this.signers.clear();
      this.signers.set(secret, signer);
    }
    return signer.sign(messageId, timestamp, body);
  }
}
