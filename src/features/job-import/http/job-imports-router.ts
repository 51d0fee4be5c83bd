/**
 * Mounted at /v1/job-imports (job_import.import_jobs): an organization's import feeds
 * (create, list, get, update, delete), an import on demand (POST …/feeds/{id}/run: 202,
 * queued) and the imports with their per-job error reports.
 */
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { ImportFeed } from '../domain/import-feed';
import type { JobImport } from '../domain/job-import';
import type { JobImports } from '../domain/job-imports';
import { createFeedBody, importFeedListSchema, importFeedSchema, jobImportListSchema, jobImportSchema, updateFeedBody } from './job-import-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const id = z.string().max(100);
const page = z.strictObject({ limit: z.coerce.number().int().min(1).max(100).default(20), starting_after: id.optional() });

export const feedView = (f: ImportFeed): z.output<typeof importFeedSchema> => ({
  id: f.id,
  object: 'job_import_feed',
  url: f.url,
  format: f.format,
  interval_minutes: f.intervalMinutes,
  next_run_at: f.nextRunAt.toISOString(),
  listings: f.externalIds.length,
  created_at: f.createdAt.toISOString(),
  updated_at: f.updatedAt.toISOString(),
});

export const importView = (i: JobImport): z.output<typeof jobImportSchema> => ({
  id: i.id,
  object: 'job_import',
  feed_id: i.feedId,
  trigger: i.trigger,
  status: i.status,
  not_modified: i.notModified,
  run_id: i.runId,
  jobs: i.jobs,
  created: i.created,
  updated: i.updated,
  closed: i.closed,
  error_count: i.errorCount,
  errors: i.errors,
  error_code: i.errorCode,
  error_message: i.errorMessage,
  created_at: i.createdAt.toISOString(),
  finished_at: i.finishedAt?.toISOString() ?? null,
});

export function jobImportRoutes(imports: JobImports): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/feeds',
      operationId: 'createJobImportFeed',
      summary: 'Registers a feed to import listings from (XML or JSON), imported at once and then every interval_minutes',
      tags: ['job-imports'],
      auth: ['organization'],
      body: createFeedBody,
      status: 201,
      response: importFeedSchema,
      // feed_url_refused (400), license_required (403), feed_limit_reached (409).
      errors: [403, 409],
      handler: async ({ principal, body }) =>
        reply(201, feedView(await imports.createFeed(orgId(principal), { url: body.url, format: body.format, intervalMinutes: body.interval_minutes }))),
    }),
    defineRoute({
      method: 'get',
      path: '/feeds',
      operationId: 'listJobImportFeeds',
      summary: "The organization's import feeds, oldest first (cursor: limit, starting_after)",
      tags: ['job-imports'],
      auth: ['organization'],
      query: page,
      response: importFeedListSchema,
      handler: async ({ principal, query }) => {
        const { data, hasMore } = await imports.listFeeds(orgId(principal), {
          limit: query.limit,
          ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
        });
        return { object: 'list' as const, data: data.map(feedView), has_more: hasMore, url: '/v1/job-imports/feeds' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/feeds/:feed_id',
      operationId: 'getJobImportFeed',
      summary: 'One import feed',
      tags: ['job-imports'],
      auth: ['organization'],
      params: z.object({ feed_id: id }),
      response: importFeedSchema,
      handler: async ({ principal, params }) => feedView(await imports.getFeed(orgId(principal), params.feed_id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/feeds/:feed_id',
      operationId: 'updateJobImportFeed',
      summary: 'Changes a feed: a new URL or format is imported at the next sweep (its former validators forgotten); a new interval counts from now',
      tags: ['job-imports'],
      auth: ['organization'],
      params: z.object({ feed_id: id }),
      body: updateFeedBody,
      response: importFeedSchema,
      handler: async ({ principal, params, body }) =>
        feedView(
          await imports.updateFeed(orgId(principal), params.feed_id, {
            ...(body.url !== undefined ? { url: body.url } : {}),
            ...(body.format !== undefined ? { format: body.format } : {}),
            ...(body.interval_minutes !== undefined ? { intervalMinutes: body.interval_minutes } : {}),
          }),
        ),
    }),
    defineRoute({
      method: 'delete',
      path: '/feeds/:feed_id',
      operationId: 'deleteJobImportFeed',
      summary: 'Stops importing a feed; the listings it imported stay as they are',
      tags: ['job-imports'],
      auth: ['organization'],
      params: z.object({ feed_id: id }),
      response: z.object({ id: z.string(), object: z.literal('job_import_feed'), deleted: z.literal(true) }),
      handler: async ({ principal, params }) => {
        await imports.deleteFeed(orgId(principal), params.feed_id);
        return { id: params.feed_id, object: 'job_import_feed' as const, deleted: true as const };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/feeds/:feed_id/run',
      operationId: 'runJobImport',
      summary: 'Imports the feed now (queued: poll GET /v1/job-imports/{import_id}); while an import of the feed is queued or running, answers that one',
      tags: ['job-imports'],
      auth: ['organization'],
      params: z.object({ feed_id: id }),
      status: 202,
      response: jobImportSchema,
      errors: [403],
      handler: async ({ principal, params }) => reply(202, importView((await imports.requestRun(orgId(principal), params.feed_id)).jobImport)),
    }),
    defineRoute({
      method: 'get',
      path: '/feeds/:feed_id/imports',
      operationId: 'listJobImports',
      summary: "A feed's imports, newest first (cursor: limit, starting_after)",
      tags: ['job-imports'],
      auth: ['organization'],
      params: z.object({ feed_id: id }),
      query: page,
      response: jobImportListSchema,
      handler: async ({ principal, params, query }) => {
        const { data, hasMore } = await imports.listImports(orgId(principal), params.feed_id, {
          limit: query.limit,
          ...(query.starting_after ? { startingAfter: query.starting_after } : {}),
        });
        return { object: 'list' as const, data: data.map(importView), has_more: hasMore, url: `/v1/job-imports/feeds/${params.feed_id}/imports` };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/:import_id',
      operationId: 'getJobImport',
      summary: 'One import: its status, counts and per-job error report',
      tags: ['job-imports'],
      auth: ['organization'],
      params: z.object({ import_id: id }),
      response: jobImportSchema,
      handler: async ({ principal, params }) => importView(await imports.getImport(orgId(principal), params.import_id)),
    }),
  ];
}
