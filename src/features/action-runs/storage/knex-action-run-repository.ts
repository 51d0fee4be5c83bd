/** Action runs on knex: one row per (organization, idempotency key), attempts as a jsonb array. */
import { newId } from '../../../kernel/ids';
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import { scrubContactDetails } from '../../privacy/domain/contact-scrubber';
import type { ActionRun, ActionRunRepository, ActionRunStatus, AttemptResult, RunAttempt, RunFilter, RunStart } from '../domain/action-run';

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

export class KnexActionRunRepository implements ActionRunRepository {
  constructor(private readonly db: Database) {}

  async startAttempt(start: RunStart, at: Date): Promise<ActionRun> {
    const first: RunAttempt = { number: 1, startedAt: at, endedAt: null, outcome: 'pending', errorCode: null };
    // The usual case, a first attempt, is one statement: the row is born running with its attempt.
    const [created] = await this.db('hi_action_runs')
      .insert({
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
        attempts: JSON.stringify([toJson(first)]),
        created_at: at,
        updated_at: at,
      })
      .onConflict(['organization_id', 'idempotency_key'])
      .ignore()
      .returning('*');
    if (created) return fromRow(created as RunRow);
    // A retry (or a repeated call): the run exists; lock it and add the attempt.
    return this.db.transaction(async (trx) => {
      const row = await trx<RunRow>('hi_action_runs')
        .where({ organization_id: start.organizationId, idempotency_key: start.idempotencyKey })
        .forUpdate()
        .first();
      const run = fromRow(row!);
      if (run.status === 'succeeded') return run;
      const attempts: RunAttempt[] = [...run.attempts, { number: run.attempts.length + 1, startedAt: at, endedAt: null, outcome: 'pending', errorCode: null }];
      // A retry may go through another connection than the first try (the organization fixed it).
      const next = {
        ...run,
        connector: start.connector,
        connectionId: start.connectionId,
        livemode: start.livemode,
        status: 'running' as const,
        attempts,
        updatedAt: at,
      };
      await trx('hi_action_runs')
        .where({ id: run.id })
        .update({
          connector: next.connector,
          connection_id: next.connectionId,
          livemode: next.livemode,
          status: 'running',
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
    await this.db('hi_action_runs')
      .where({ id: run.id })
      .update({
        status: next.status,
        attempts: JSON.stringify(attempts.map(toJson)),
        reference: next.reference,
        result: next.result === null ? null : JSON.stringify(next.result),
        error_code: next.errorCode,
        error_message: next.errorMessage,
        updated_at: at,
        completed_at: next.completedAt,
      });
    return next;
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
