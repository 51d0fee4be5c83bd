/**
 * A switch that makes the sandbox misbehave, to rehearse provider outages: answer with a
 * status (5xx, or 401 to force a token refresh), or hang past the client's deadline.
 * Per process and in memory; the routes that set it exist only outside production.
 */
export type FaultTarget = 'profile' | 'token';

export interface Fault {
  target: FaultTarget;
  /** `status`: answer `status`; `timeout`: hold, then 504; `slow`: hold, then answer normally. */
  mode: 'status' | 'timeout' | 'slow';
  status: number;
  /** How long a `timeout` or `slow` fault holds the request. */
  delayMs: number;
  /** How many requests fail before the provider heals; undefined = until cleared. */
  remaining?: number;
}

export class SandboxFaults {
  private readonly faults = new Map<FaultTarget, Fault>();

  constructor(private readonly production: boolean) {}

  set(fault: Fault): void {
    if (this.production) throw new Error('Sandbox faults cannot be enabled in production');
    this.faults.set(fault.target, { ...fault });
  }

  clear(): void {
    this.faults.clear();
  }

  /** The fault to apply to this request, counting it down. */
  take(target: FaultTarget): Fault | undefined {
    const fault = this.faults.get(target);
    if (!fault) return undefined;
    if (fault.remaining !== undefined) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.faults.delete(target);
    }
    return fault;
  }

  list(): Fault[] {
    return [...this.faults.values()];
  }
}
