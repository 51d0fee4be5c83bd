/** Mounted at /v1/candidate-exports (job_import.export_candidates; docs/candidate-exports.md). */
import { once } from 'node:events';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { CandidateExportService } from '../domain/candidate-export-service';
import { EXPORT_FORMATS, type ExportFilters } from '../domain/export-record';
import { EXPORT_CADENCES, type ExportSchedule } from '../domain/export-schedule';
import { fileExtension, mediaType } from '../domain/export-stream';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const time = z.iso.datetime({ offset: true });
const format = z.enum(EXPORT_FORMATS).meta({ description: 'csv (format candidates.v1) or hr_open_json (HR Open Recruiting 4.x CandidateType documents)' });
const filterFields = {
  listing_id: z.string().min(1).max(200).optional(),
  status: z.enum(['submitted']).optional().meta({ description: "The application's pipeline status" }),
};

const downloadQuery = z.object({ format: format.default('csv'), ...filterFields, since: time.optional() }).strict();
const deliveryBody = z.object({ format: format.default('csv'), ...filterFields, since: time.optional() }).strict();
const scheduleBody = z
  .object({
    format: format.default('csv'),
    every: z.enum(EXPORT_CADENCES),
    ...filterFields,
    first_run_at: time.optional().meta({ description: 'When the first delivery is due (default: one cadence from now; at most a week ahead)' }),
  })
  .strict();

const deliverySchema = z
  .object({ object: z.literal('candidate_export_delivery'), run_id: z.string(), file_name: z.string(), path: z.string(), sha256: z.string() })
  .meta({ id: 'CandidateExportDelivery' });
const scheduleSchema = z
  .object({
    object: z.literal('candidate_export_schedule'),
    format,
    every: z.enum(EXPORT_CADENCES),
    listing_id: z.string().nullable(),
    status: z.string().nullable(),
    next_run_at: z.string(),
    last_delivered_at: z.string().nullable(),
  })
  .meta({ id: 'CandidateExportSchedule' });

const filtersOf = (q: { listing_id?: string; status?: string; since?: string }): ExportFilters => ({
  ...(q.listing_id !== undefined ? { listingId: q.listing_id } : {}),
  ...(q.status !== undefined ? { status: q.status } : {}),
  ...(q.since !== undefined ? { since: new Date(q.since) } : {}),
});

const scheduleView = (s: ExportSchedule): z.output<typeof scheduleSchema> => ({
  object: 'candidate_export_schedule',
  format: s.format,
  every: s.every,
  listing_id: s.filters.listingId ?? null,
  status: s.filters.status ?? null,
  next_run_at: s.nextRunAt.toISOString(),
  last_delivered_at: s.lastDeliveredAt?.toISOString() ?? null,
});

export function candidateExportRoutes(exports: CandidateExportService): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/download',
      operationId: 'downloadApplicationsExport',
      summary:
        "The organization's applications and candidates as one file, streamed (filters: listing_id, status, since): CSV (candidates.v1) or HR Open JSON; an action run of job_import.export_candidates",
      tags: ['candidate-exports'],
      auth: ['organization'],
      query: downloadQuery,
      produces: ['text/csv', 'application/json'],
      response: z
        .union([z.string(), z.array(z.record(z.string(), z.unknown()))])
        .meta({ description: 'text/csv: the CSV file (header row, one row per application); application/json: an array of HR Open CandidateType documents' }),
      // Reading every application: who did is audited.
      audit: 'read',
      errors: [403],
      handler: async ({ principal, query, res }) => {
        const organizationId = orgId(principal);
        // Refusals (no license) are JSON errors before the first byte.
        await exports.requireLicense(organizationId);
        res.setHeader('Content-Type', mediaType(query.format));
        res.setHeader('Content-Disposition', `attachment; filename="candidates.${fileExtension(query.format)}"`);
        res.setHeader('Cache-Control', 'no-store');
        res.status(200);
        try {
          await exports.download(organizationId, query.format, filtersOf(query), async (chunk) => {
            if (res.destroyed) throw new Error('closed');
            // Back-pressure: the next page is read once this one has drained.
            if (!res.write(chunk)) await once(res, 'drain');
          });
        } catch (error) {
          // Past the status line a failure can only cut the download short, never pass for its end.
          res.destroy(error as Error);
          return undefined;
        }
        res.end();
        return undefined;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/deliveries',
      operationId: 'deliverCandidateExport',
      summary: "Delivers an export file now to the organization's SFTP connection (host key pinned, atomic rename); the run's reference is its SHA-256",
      tags: ['candidate-exports'],
      auth: ['organization'],
      body: deliveryBody,
      status: 201,
      response: deliverySchema,
      // license_required; connection_missing, connection_host_key_mismatch, file_exists (the run records the code); 503 server unreachable.
      errors: [403, 409],
      handler: async ({ principal, body }) => {
        const delivered = await exports.deliver(orgId(principal), body.format, filtersOf(body));
        return reply(201, {
          object: 'candidate_export_delivery',
          run_id: delivered.runId,
          file_name: delivered.fileName,
          path: delivered.path,
          sha256: delivered.sha256,
        } satisfies z.output<typeof deliverySchema>);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/schedule',
      operationId: 'getCandidateExportSchedule',
      summary: "The organization's scheduled SFTP export (404 when none)",
      tags: ['candidate-exports'],
      auth: ['organization'],
      response: scheduleSchema,
      errors: [404],
      handler: async ({ principal }) => scheduleView(await exports.getSchedule(orgId(principal))),
    }),
    defineRoute({
      method: 'put',
      path: '/schedule',
      operationId: 'putCandidateExportSchedule',
      summary: 'Sets the scheduled SFTP export: format, cadence, filters; each delivery carries the applications created since the previous one',
      tags: ['candidate-exports'],
      auth: ['organization'],
      body: scheduleBody,
      response: scheduleSchema,
      errors: [403],
      handler: async ({ principal, body }) =>
        scheduleView(
          await exports.schedule(orgId(principal), {
            format: body.format,
            every: body.every,
            filters: {
              ...(body.listing_id !== undefined ? { listingId: body.listing_id } : {}),
              ...(body.status !== undefined ? { status: body.status } : {}),
            },
            ...(body.first_run_at !== undefined ? { firstRunAt: new Date(body.first_run_at) } : {}),
          }),
        ),
    }),
    defineRoute({
      method: 'delete',
      path: '/schedule',
      operationId: 'deleteCandidateExportSchedule',
      summary: 'Stops the scheduled SFTP export',
      tags: ['candidate-exports'],
      auth: ['organization'],
      response: z.object({ object: z.literal('candidate_export_schedule'), deleted: z.literal(true) }),
      errors: [404],
      handler: async ({ principal }) => {
        await exports.deleteSchedule(orgId(principal));
        return { object: 'candidate_export_schedule', deleted: true };
      },
    }),
  ];
}
