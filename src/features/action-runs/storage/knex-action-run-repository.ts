/** Action runs on knex: one row per (organization, idempotency key), attempts as a jsonb array. */
import { GroupCommit } from '../../../kernel/group-commit';
import { LIVE_RUN_REFERENCES } from './live-run-references';
import { newId } from '../../../kernel/ids';
import { deletedRows, type Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { scrubContactDetails } from '../../privacy/domain/contact-scrubber';
import {
  runDeliveryState,
  runStatusOf,
  type ActionRun,
  type ActionRunRepository,
  type ActionRunStatus,
  type AttemptResult,
  type RunAttempt,
  type RunFilter,
  type RunStart,
} from '../domain/action-run';
import { transition } from '../../../kernel/delivery/delivery-state';

interface AttemptJson {
  number: number;
  started_at: string;
  ended_at: string | null;
  outcome: RunAttempt['outcome'];
  error_code: string | null;
}

interface RunRow {
  id: string;
  organization_id: string;
  idempotency_key: string;
  action: string;
  hook: string | null;
  step: string;
  connector: string;
  connection_id: string | null;
  livemode: boolean;
  status: ActionRunStatus;
  attempts: unknown;
  reference: string | null;
  result: unknown;
  error_code: string | null;
  error_message: string | null;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

const fromRow = (row: RunRow): ActionRun => ({
  id: row.id,
  organizationId: row.organization_id,
  idempotencyKey: row.idempotency_key,
  action: row.action,
  hook: row.hook ?? null,
  step: row.step,
  connector: row.connector,
  connectionId: row.connection_id,
  livemode: row.livemode,
  status: row.status,
  attempts: fromJson<AttemptJson[]>(row.attempts).map((a) => ({
    number: a.number,
    startedAt: new Date(a.started_at),
    endedAt: a.ended_at ? new Date(a.ended_at) : null,
    outcome: a.outcome,
    errorCode: a.error_code,
  })),
  reference: row.reference,
  result: row.result == null ? null : fromJson<Record<string, unknown>>(row.result),
  errorCode: row.error_code,
  errorMessage: row.error_message,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
  completedAt: row.completed_at ? new Date(row.completed_at) : null,
});

const toJson = (a: RunAttempt): AttemptJson => ({
  number: a.number,
  started_at: a.startedAt.toISOString(),
  ended_at: a.endedAt?.toISOString() ?? null,
  outcome: a.outcome,
  error_code: a.errorCode,
});

type FinishedRun = Pick<ActionRun, 'id' | 'status' | 'attempts' | 'reference' | 'result' | 'errorCode' | 'errorMessage' | 'updatedAt' | 'completedAt'>;

export class KnexActionRunRepository implements ActionRunRepository {
  /**
   * The hot path of every run is two writes, the first attempt and its outcome (as webhook
   * deliveries' claim and success are); those of concurrent runs share one statement each.
   */
  private readonly starts = new GroupCommit<{ start: RunStart; at: Date }, ActionRun | undefined>((_, items) => this.startBatch(items));
  private readonly finishes = new GroupCommit<FinishedRun, void>((_, items) => this.finishBatch(items));

  constructor(private readonly db: Database) {}

  async startAttempt(start: RunStart, at: Date): Promise<ActionRun> {
    // The usual case, a first attempt, is one statement shared by the runs started meanwhile: each row is born running with its attempt.
    const created = await this.starts.submit('start', { start, at });
    if (created) return created;
    // A retry (or a repeated call): the run exists; lock it and add the attempt.
    return this.db.transaction(async (trx) => {
      const row = await trx<RunRow>('hi_action_runs')
        .where({ organization_id: start.organizationId, idempotency_key: start.idempotencyKey })
        .forUpdate()
        .first();
      const run = fromRow(row!);
      // The engine's `begin`: from running (a lost attempt) or retrying; a failed run asked again is reopened first; never from succeeded.
      const state = runDeliveryState(run);
      const begun = transition(state, { type: 'begin' }) ?? transition(transition(state, { type: 'reopen' }) ?? state, { type: 'begin' });
      if (!begun) return run;
      const attempts: RunAttempt[] = [...run.attempts, { number: run.attempts.length + 1, startedAt: at, endedAt: null, outcome: 'pending', errorCode: null }];
      // A retry may go through another connection than the first try (the organization fixed it).
      const next = {
        ...run,
        connector: start.connector,
        connectionId: start.connectionId,
        livemode: start.livemode,
        status: runStatusOf(begun),
        attempts,
        updatedAt: at,
      };
      await trx('hi_action_runs')
        .where({ id: run.id })
        .update({
          connector: next.connector,
          connection_id: next.connectionId,
          livemode: next.livemode,
          status: next.status,
          attempts: JSON.stringify(attempts.map(toJson)),
          updated_at: at,
        });
      return next;
    });
  }

  async finishAttempt(run: ActionRun, result: AttemptResult, at: Date): Promise<ActionRun> {
    const attempts = run.attempts.map((a, i) =>
      i === run.attempts.length - 1 ? { ...a, endedAt: at, outcome: result.outcome, errorCode: result.errorCode ?? null } : a,
    );
    const done = result.status === 'succeeded' || result.status === 'failed';
    const next: ActionRun = {
      ...run,
      status: result.status,
      attempts,
      reference: result.reference ?? run.reference,
      result: result.answer ?? run.result,
      errorCode: result.status === 'succeeded' ? null : (result.errorCode ?? null),
      // A counterpart's text may name the recipient (SMTP 550 <ann@…>): kept without contact details.
      errorMessage: result.status === 'succeeded' ? null : scrubContactDetails(result.errorMessage ?? null),
      updatedAt: at,
      completedAt: done ? at : null,
    };
    await this.finishes.submit('finish', next);
    return next;
  }

  /** First attempts of concurrent runs in one INSERT; a run that exists already (a retry) answers undefined. */
  private async startBatch(items: { start: RunStart; at: Date }[]): Promise<(ActionRun | undefined)[]> {
    const rows = (await this.db('hi_action_runs')
      .insert(
        items.map(({ start, at }) => ({
          id: newId('run'),
          organization_id: start.organizationId,
          idempotency_key: start.idempotencyKey,
          action: start.action,
          hook: start.hook ?? null,
          step: start.step,
          connector: start.connector,
          connection_id: start.connectionId,
          livemode: start.livemode,
          status: 'running',
          attempts: JSON.stringify([toJson({ number: 1, startedAt: at, endedAt: null, outcome: 'pending', errorCode: null })]),
          created_at: at,
          updated_at: at,
        })),
      )
      .onConflict(['organization_id', 'idempotency_key'])
      .ignore()
      .returning('*')) as RunRow[];
    const byKey = new Map(rows.map((row) => [`${row.organization_id}\u0000${row.idempotency_key}`, row]));
    return items.map(({ start }) => {
      const key = `${start.organizationId}\u0000${start.idempotencyKey}`;
      const row = byKey.get(key);
      // Two starts of one key in a batch: the first is the insert, the second a retry.
      byKey.delete(key);
      return row ? fromRow(row) : undefined;
    });
  }

  /** Outcomes of concurrent attempts in one UPDATE … FROM (VALUES …). */
  private async finishBatch(items: FinishedRun[]): Promise<void[]> {
    await this.db.raw(
      `UPDATE hi_action_runs r
       SET status = v.status, attempts = v.attempts, reference = v.reference, result = v.result, error_code = v.error_code,
           error_message = v.error_message, updated_at = v.updated_at, completed_at = v.completed_at
       FROM (VALUES ${items.map(() => '(?::text, ?::text, ?::jsonb, ?::text, ?::jsonb, ?::text, ?::text, ?::timestamptz, ?::timestamptz)').join(', ')})
         AS v(id, status, attempts, reference, result, error_code, error_message, updated_at, completed_at)
       WHERE r.id = v.id`,
      items.flatMap((run) => [
        run.id,
        run.status,
        JSON.stringify(run.attempts.map(toJson)),
        run.reference,
        run.result === null ? null : JSON.stringify(run.result),
        run.errorCode,
        run.errorMessage,
        run.updatedAt,
        run.completedAt,
      ]),
    );
    return items.map(() => undefined);
  }

  async find(organizationId: string, id: string): Promise<ActionRun | undefined> {
    const row = await this.db<RunRow>('hi_action_runs').where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async reopen(organizationId: string, id: string, at: Date): Promise<ActionRun | undefined> {
    const [row] = await this.db<RunRow>('hi_action_runs')
      .where({ organization_id: organizationId, id, status: 'failed' })
      .update({ status: 'retrying', completed_at: null, retry_requested_at: at, updated_at: at } as never)
      .returning('*');
    return row ? fromRow(row as RunRow) : undefined;
  }

  async unfinished(before: Date, limit: number): Promise<ActionRun[]> {
    const rows = await this.db<RunRow>('hi_action_runs')
      .whereIn('status', ['running', 'retrying'])
      .where('updated_at', '<', before)
      .orderBy('updated_at')
      .limit(limit);
    return rows.map(fromRow);
  }

  async restoreFailed(organizationId: string, id: string, at: Date): Promise<void> {
    await this.db('hi_action_runs')
      .where({ organization_id: organizationId, id, status: 'retrying' })
      .update({ status: 'failed', completed_at: at, updated_at: at });
  }

  async pruneCompleted(succeededBefore: Date, failedBefore: Date, limit: number): Promise<number> {
    const stillOpen = LIVE_RUN_REFERENCES.flatMap(({ table, columns, open }) =>
      columns.map((column) => `and not exists (select 1 from ${table} ref where ref.${column} = r.id and ${open})`),
    ).join('\n        ');
    // One bounded statement: the due rows (hi_action_runs_completed) not open elsewhere, skipping any a run is updating.
    const result = await this.db.raw(
      `delete from hi_action_runs where id in (
        select r.id from hi_action_runs r
        where r.status in ('succeeded', 'failed') and r.completed_at < ?
          and (r.status = 'failed' or r.completed_at < ?)
          and (r.status = 'succeeded' or r.completed_at < ?)
        ${stillOpen}
        order by r.completed_at
        limit ? for update of r skip locked)`,
      [succeededBefore > failedBefore ? succeededBefore : failedBefore, succeededBefore, failedBefore, limit],
    );
    return deletedRows(result);
  }

  /** Newest first; the cursor is a run id of the previous page. */
  async list(organizationId: string, filter: RunFilter): Promise<{ data: ActionRun[]; hasMore: boolean }> {
    let query = this.db<RunRow>('hi_action_runs').where({ organization_id: organizationId });
    if (filter.action) query = query.where({ action: filter.action });
    if (filter.hook) query = query.where({ hook: filter.hook });
    if (filter.status) query = query.where({ status: filter.status });
    if (filter.createdGte) query = query.where('created_at', '>=', filter.createdGte);
    if (filter.createdLt) query = query.where('created_at', '<', filter.createdLt);
    if (filter.startingAfter) {
      const cursor = await this.db<RunRow>('hi_action_runs').where({ organization_id: organizationId, id: filter.startingAfter }).first('created_at', 'id');
      if (!cursor) return { data: [], hasMore: false };
      query = query.where((q) =>
        q.where('created_at', '<', cursor.created_at).orWhere((q2) => q2.where('created_at', '=', cursor.created_at).andWhere('id', '<', cursor.id)),
      );
    }
    const rows = await query
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(filter.limit + 1);
    return { data: rows.slice(0, filter.limit).map(fromRow), hasMore: rows.length > filter.limit };
  }
}
