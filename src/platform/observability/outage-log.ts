/**
 * Logs a dependency's outage once when it starts and once when it ends, not once per
 * failed request or connection attempt (a 30 s database outage used to write thousands
 * of lines).
 */
import type { Logger } from '../../kernel/logger';

export class OutageLog {
  private downSince: number | undefined;
  private failures = 0;

  constructor(
    private readonly logger: Logger,
    private readonly dependency: string,
  ) {}

  get isDown(): boolean {
    return this.downSince !== undefined;
  }

  down(error: unknown): void {
    this.failures++;
    if (this.downSince !== undefined) return;
    this.downSince = Date.now();
    const message = String((error as Error)?.message ?? error).slice(0, 300);
    this.logger.warn({ dependency: this.dependency, err: message }, `${this.dependency} unavailable`);
  }

  up(): void {
    if (this.downSince === undefined) return;
    this.logger.info({ dependency: this.dependency, downMs: Date.now() - this.downSince, failedAttempts: this.failures }, `${this.dependency} available again`);
    this.downSince = undefined;
    this.failures = 0;
  }
}
