/**
 * Embedded mode's EntitlementInvalidations: one process, so a process-wide event emitter
 * on a channel name (the queue prefix's) reaches every activation in this process.
 */
import { EventEmitter } from 'node:events';
import { randomToken } from '../domain/shared/ids';
import type { Disposer } from '../domain/shared/disposer';
import type { EntitlementInvalidation, EntitlementInvalidations } from '../domain/entitlements/entitlement-invalidations';

const processBus = new EventEmitter();
processBus.setMaxListeners(0);

interface Envelope {
  origin: string;
  change: EntitlementInvalidation;
}

export class InProcessEntitlementInvalidations implements EntitlementInvalidations {
  private readonly origin = randomToken(12);

  constructor(private readonly channel: string) {}

  async publish(change: EntitlementInvalidation): Promise<void> {
    processBus.emit(this.channel, { origin: this.origin, change } satisfies Envelope);
  }

  async subscribe(listener: (change: EntitlementInvalidation) => void): Promise<Disposer> {
    const onMessage = (envelope: Envelope) => {
      if (envelope.origin !== this.origin) listener(envelope.change);
    };
    processBus.on(this.channel, onMessage);
    return () => void processBus.off(this.channel, onMessage);
  }
}
