/**
 * Moves outbox rows to the queue and marks them dispatched. Runs in every API and worker
 * process; `for update skip locked` lets several relays share the table without handing
 * a row out twice, and the deterministic job id makes a re-dispatch after a crash a no-op.
 * While Redis is down rows simply wait, and go out once it is back. Dispatched rows are
 * kept a week (what went out, and when, for an operator looking into a job), then pruned.
 */
import type { JobQueue } from '../../kernel/job-queue';
import type { OutboxNotifier } from '../../kernel/outbox';
import type { Logger } from '../../kernel/logger';
import { deletedRows, isEmbedded, type Database } from '../database/database';
import { isAvailabilityError } from '../../kernel/availability';
import { OutageLog } from '../observability/outage-log';

interface OutboxRow {
  id: string;
  queue: string;
  name: string;
  job_id: string;
  data: object | string;
  delay_ms: number;
  created_at: Date;
}

export interface RelayOptions {
  pollMs: number;
  batchSize: number;
  coalesceMs?: number;
  /** How long dispatched rows are kept. Default: 7 days. */
  retentionMs?: number;
  /** How often a relay prunes. Default: every 10 minutes. */
  pruneEveryMs?: number;
}

const DAY_MS = 86_400_000;

export class OutboxRelay implements OutboxNotifier {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /** A pass is already scheduled because of a nudge. */
  private nudged = false;

  constructor(
    private readonly db: Database,
    private readonly queue: JobQueue,
    private readonly logger: Logger,
    private readonly options: RelayOptions = { pollMs: 500, batchSize: 100 },
  ) {
    this.outage = new OutageLog(logger, 'outbox relay');
  }

  private lastPrunedAt = 0;
  /** A database or Redis outage fails every pass: logged when it starts and ends, not per pass. */
  private readonly outage: OutageLog;

  /**
   * Nudges within this window share one pass: under load, one transaction hands over
   * many rows instead of one each (a few milliseconds of delay, a fraction of the queries).
   */
  private get coalesceMs(): number {
    return this.options.coalesceMs ?? 5;
  }

  start(): () => Promise<void> {
    this.stopped = false;
    this.schedule(0);
    return () => this.stop();
  }

  nudge(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else if (!this.nudged) {
      this.nudged = true;
      this.schedule(this.coalesceMs);
    }
  }

  /** One pass: dispatch what is pending now. Returns how many rows went out. */
  async dispatchPending(): Promise<number> {
    const skipLocked = !isEmbedded(this.db);
    let sent = 0;
    await this.db.transaction(async (trx) => {
      let query = trx<OutboxRow>('hi_outbox').whereNull('dispatched_at').orderBy('id').limit(this.options.batchSize).forUpdate();
      if (skipLocked) query = query.skipLocked();
      const rows = await query;
      // One batch per queue, all at once: one Redis round trip per queue for the whole pass,
      // not one per row. A batch that fails leaves its rows pending; the deterministic job
      // ids make adding the ones that did go through again a no-op.
      const byQueue = new Map<string, OutboxRow[]>();
      for (const row of rows) {
        const queued = byQueue.get(row.queue);
        if (queued) queued.push(row);
        else byQueue.set(row.queue, [row]);
      }
      const now = Date.now();
      const batches = [...byQueue];
      const results = await Promise.allSettled(
        batches.map(([queue, queued]) =>
          this.queue.addBatch(
            queue,
            queued.map((row) => ({
              name: row.name,
              data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
              // Delays count from when the record was written, not from when Redis came back.
              options: { jobId: row.job_id, delayMs: Math.max(0, row.delay_ms - (now - new Date(row.created_at).getTime())) },
            })),
          ),
        ),
      );
      const done: string[] = [];
      const failed: OutboxRow[] = [];
      batches.forEach(([, queued], i) => {
        if (results[i]!.status === 'fulfilled') done.push(...queued.map((row) => row.id));
        else failed.push(...queued);
      });
      if (failed.length > 0) {
        const error = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as Error;
        const message = String(error?.message ?? error).slice(0, 500);
        await trx('hi_outbox')
          .whereIn(
            'id',
            failed.map((r) => r.id),
          )
          .update({ attempts: trx.raw('attempts + 1'), last_error: message });
        if (isAvailabilityError(error)) this.outage.down(error);
        else this.logger.warn({ rows: failed.length, queue: failed[0]!.queue, jobId: failed[0]!.job_id, err: message }, 'outbox dispatch failed; will retry');
      }
      if (done.length > 0) await trx('hi_outbox').whereIn('id', done).update({ dispatched_at: new Date() });
      if (failed.length === 0) this.outage.up();
      sent = done.length;
    });
    return sent;
  }

  /** Deletes (a batch of) rows dispatched longer ago than the retention. Returns how many. */
  async prune(now = Date.now()): Promise<number> {
    const cutoff = new Date(now - (this.options.retentionMs ?? 7 * DAY_MS));
    const expired = this.db('hi_outbox').select('id').where('dispatched_at', '<', cutoff).orderBy('id').limit(1000);
    return deletedRows(await this.db('hi_outbox').whereIn('id', expired).del());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    if (this.stopped || this.running) return;
    this.nudged = false;
    let sent = 0;
    this.running = this.dispatchPending()
      .then((n) => void (sent = n))
      .catch((error) => {
        if (isAvailabilityError(error)) this.outage.down(error);
        else this.logger.warn({ err: (error as Error).message }, 'outbox relay pass failed');
      });
    await this.running;
    this.running = undefined;
    if (this.stopped) return;
    if (Date.now() - this.lastPrunedAt >= (this.options.pruneEveryMs ?? 10 * 60_000)) {
      this.lastPrunedAt = Date.now();
      await this.prune().catch((error) => this.logger.warn({ err: (error as Error).message }, 'pruning the outbox failed'));
    }
    const full = sent === this.options.batchSize;
    const nudged = this.again;
    this.again = false;
    this.nudged = nudged && !full;
    this.schedule(full ? 0 : nudged ? this.coalesceMs : this.options.pollMs);
  }
}
