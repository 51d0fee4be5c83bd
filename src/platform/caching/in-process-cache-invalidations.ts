/**
 * Embedded mode's CacheInvalidations: one process, so a process-wide event emitter on the
 * channel name reaches every activation in this process.
 */
import { EventEmitter } from 'node:events';
import { randomToken } from '../../kernel/ids';
import type { Disposer } from '../../kernel/disposer';
import type { CacheInvalidation, CacheInvalidations } from './cache-invalidations';

const processBus = new EventEmitter();
processBus.setMaxListeners(0);

interface Envelope {
  origin: string;
  change: CacheInvalidation;
}

export class InProcessCacheInvalidations implements CacheInvalidations {
  private readonly origin = randomToken(12);

  constructor(private readonly channel: string) {}

  async publish(cache: string, key: string): Promise<void> {
    processBus.emit(this.channel, { origin: this.origin, change: { type: 'changed', cache, key } } satisfies Envelope);
  }

  async subscribe(listener: (change: CacheInvalidation) => void): Promise<Disposer> {
    const onMessage = (envelope: Envelope) => {
      if (envelope.origin !== this.origin) listener(envelope.change);
    };
    processBus.on(this.channel, onMessage);
    return () => void processBus.off(this.channel, onMessage);
  }
}
