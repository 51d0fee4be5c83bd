/** Import feeds, imports and their requests (zod: validation and /v1/openapi.json). */
import { z } from 'zod';
import { isoDateTime, listOf, nullableDateTime } from '../../../platform/http/common-schemas';
import { MAX_INTERVAL_MINUTES, MIN_INTERVAL_MINUTES } from '../domain/import-feed';

const url = z
  .string()
  .min(1)
  .max(2000)
  .meta({ description: 'Absolute http(s) URL of the feed (https in production; a public address)', example: 'https://ats.example/jobs.xml' });
const format = z.enum(['xml', 'json']).meta({
  description: 'xml: the aggregators\' <source><job> feed (our jobs.xml, Indeed\'s format); json: our JSON feed (jobs.json, {"object":"job_feed","data":[…]})',
});
const interval = z.number().int().min(MIN_INTERVAL_MINUTES).max(MAX_INTERVAL_MINUTES).meta({ description: 'How often the feed is imported, in minutes' });

export const createFeedBody = z.strictObject({ url, format: format.default('xml'), interval_minutes: interval.default(60) });
export const updateFeedBody = z.strictObject({ url: url.optional(), format: format.optional(), interval_minutes: interval.optional() });

export const importFeedSchema = z
  .object({
    id: z.string().meta({ example: 'jfeed_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('job_import_feed'),
    url: z.string(),
    format: z.enum(['xml', 'json']),
    interval_minutes: z.number().int(),
    next_run_at: isoDateTime.meta({ description: 'When the schedule imports it next' }),
    listings: z.number().int().meta({ description: 'External ids the last import carried' }),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'JobImportFeed' });
export const importFeedListSchema = listOf(importFeedSchema);

export const jobImportSchema = z
  .object({
    id: z.string().meta({ example: 'jimp_2vZr1LkP0aYwE3cJx8fQ' }),
    object: z.literal('job_import'),
    feed_id: z.string(),
    trigger: z.enum(['api', 'schedule']),
    status: z.enum(['queued', 'running', 'succeeded', 'failed']),
    not_modified: z.boolean().meta({ description: 'The feed answered 304 to the conditional GET: nothing to do' }),
    run_id: z.string().nullable().meta({ description: 'The import’s action run (null while queued)' }),
    jobs: z.number().int().meta({ description: 'Jobs the feed carried' }),
    created: z.number().int(),
    updated: z.number().int(),
    closed: z.number().int().meta({ description: 'Listings closed because they left the feed' }),
    error_count: z.number().int(),
    errors: z
      .array(
        z.object({
          position: z.number().int().meta({ description: '1-based position of the job in the feed' }),
          reference: z.string().nullable(),
          code: z.string().meta({ example: 'title_missing' }),
          message: z.string(),
        }),
      )
      .meta({ description: 'The first 100 jobs that could not be imported' }),
    error_code: z
      .string()
      .nullable()
      .meta({ description: 'Why a failed import failed (feed_malformed, feed_unreachable, feed_http_error, …)', example: 'feed_malformed' }),
    error_message: z.string().nullable(),
    created_at: isoDateTime,
    finished_at: nullableDateTime,
  })
  .meta({ id: 'JobImport' });
export const jobImportListSchema = listOf(jobImportSchema);
