/** Mounted at /v1/integrations/runs: what the organization's actions did, attempt by attempt. */
import { invalid, notFound } from '../../../kernel/errors';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import type { ActionRun, ActionRunRepository } from '../domain/action-run';
import type { RunRetries } from '../domain/run-retries';
import { actionRunListSchema, actionRunSchema, RUN_STATUSES } from './action-run-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

export function runView(run: ActionRun): z.output<typeof actionRunSchema> {
  return {
    id: run.id,
    object: 'action_run',
    action: run.action,
    hook: run.hook,
    step: run.step,
    connector: run.connector,
    connection_id: run.connectionId,
    livemode: run.livemode,
    status: run.status,
    reference: run.reference,
    error: run.errorCode ? { code: run.errorCode, message: run.errorMessage } : null,
    // What an SMS counterpart reported after accepting the message (status callbacks, receipts).
    delivery_status: typeof run.result?.delivery_status === 'string' ? run.result.delivery_status : null,
    attempts: run.attempts.map((a) => ({
      number: a.number,
      started_at: a.startedAt.toISOString(),
      ended_at: a.endedAt?.toISOString() ?? null,
      outcome: a.outcome,
      error_code: a.errorCode,
    })),
    created_at: run.createdAt.toISOString(),
    completed_at: run.completedAt?.toISOString() ?? null,
  };
}

const timestamp = z.iso.datetime({ offset: true });

const listQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).default(10),
    starting_after: z.string().max(100).optional(),
    action: z.string().max(100).optional(),
    hook: z.string().max(100).optional(),
    status: z.enum(RUN_STATUSES).optional(),
    'created[gte]': timestamp.optional(),
    'created[lt]': timestamp.optional(),
  })
  .strict();

export function actionRunRoutes(runs: ActionRunRepository, retries: RunRetries): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listActionRuns',
      summary: "The organization's action runs, newest first (filters: action, hook, status, created[gte], created[lt]; cursor: limit, starting_after)",
      tags: ['connections'],
      auth: ['organization'],
      query: listQuery,
      response: actionRunListSchema,
      handler: async ({ principal, query }) => {
        const gte = query['created[gte]'] ? new Date(query['created[gte]']) : undefined;
        const lt = query['created[lt]'] ? new Date(query['created[lt]']) : undefined;
        if (gte && lt && gte >= lt) throw invalid('parameter_invalid', 'created[gte] must be before created[lt]', 'created[gte]');
        const page = await runs.list(orgId(principal), {
          limit: query.limit,
          ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
          ...(query.action ? { action: query.action } : {}),
          ...(query.hook ? { hook: query.hook } : {}),
          ...(query.status ? { status: query.status } : {}),
          ...(gte ? { createdGte: gte } : {}),
          ...(lt ? { createdLt: lt } : {}),
        });
        return { object: 'list' as const, data: page.data.map(runView), has_more: page.hasMore, url: '/v1/integrations/runs' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:run_id',
      operationId: 'getActionRun',
      summary: 'One action run with its attempts',
      tags: ['connections'],
      auth: ['organization'],
      params: z.object({ run_id: z.string().max(100) }),
      response: actionRunSchema,
      handler: async ({ principal, params }) => {
        const run = await runs.find(orgId(principal), params.run_id);
        if (!run) throw notFound('action run', params.run_id);
        return runView(run);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/:run_id/retry',
      operationId: 'retryActionRun',
      summary:
        'Retry a failed run: 202 with the run, now retrying (one more attempt on the same run); a run already retrying answers as it stands; a succeeded run 409 run_succeeded',
      tags: ['connections'],
      auth: ['organization'],
      params: z.object({ run_id: z.string().max(100) }),
      status: 202,
      response: actionRunSchema,
      // run_succeeded, run_not_retryable.
      errors: [409],
      handler: async ({ principal, params }) => runView(await retries.retry(orgId(principal), params.run_id)),
    }),
  ];
}
