/**
 * Mounted at /v1/privacy: the organization's retention settings, and the operator's "run the
 * retention pass now" (with a test clock's time, outside production).
 */
import { forbidden } from '../../../kernel/errors';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import { isoDateTime, nullableDateTime } from '../../../platform/http/common-schemas';
import { RETENTION_DEFAULTS, type RetentionRepository } from '../domain/retention';
import type { RetentionSweep } from '../domain/retention-sweep';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

const days = z.number().int().min(1).max(36_500).nullable();

export const retentionSettingsSchema = z
  .object({
    object: z.literal('retention_settings'),
    applications_days: z
      .number()
      .int()
      .meta({ description: `Days after every listing a candidate applied to closed (default ${RETENTION_DEFAULTS.applicationsDays})` }),
    unfinished_authorizations_days: z
      .number()
      .int()
      .meta({ description: `Days after a candidate who never applied authorized (default ${RETENTION_DEFAULTS.unfinishedAuthorizationsDays})` }),
    defaults: z.object({ applications_days: z.number().int(), unfinished_authorizations_days: z.number().int() }),
    updated_at: nullableDateTime,
  })
  .meta({ id: 'RetentionSettings' });

export const retentionReportSchema = z
  .object({
    as_of: isoDateTime,
    erasures_started: z.object({ applications: z.number().int(), unfinished_authorizations: z.number().int() }),
    held: z.number().int().meta({ description: 'Candidates due but kept by a legal hold' }),
    hired_kept: z.number().int().meta({ description: 'Candidates due by the applications rule but kept because one of their applications led to a hire' }),
    audit_events_pruned: z
      .number()
      .int()
      .meta({ description: 'Audit events older than AUDIT_RETENTION_DAYS removed (each chain stays verifiable from its anchor)' }),
    operational_records_pruned: z.record(z.string(), z.number().int()).meta({
      description:
        'Operational records removed, by kind: `action_runs` past ACTION_RUN_RETENTION_DAYS (succeeded) or ACTION_RUN_FAILED_RETENTION_DAYS (failed), never one still running or referenced by an open record',
    }),
  })
  .meta({ id: 'RetentionReport' });

export function retentionRoutes(s: { retention: RetentionRepository; sweep: () => RetentionSweep; production: boolean }): RouteDefinition<any, any, any>[] {
  const view = async (organizationId: string): Promise<z.output<typeof retentionSettingsSchema>> => {
    const settings = await s.retention.settings(organizationId);
    return {
      object: 'retention_settings',
      applications_days: settings.applicationsDays ?? RETENTION_DEFAULTS.applicationsDays,
      unfinished_authorizations_days: settings.unfinishedAuthorizationsDays ?? RETENTION_DEFAULTS.unfinishedAuthorizationsDays,
      defaults: { applications_days: RETENTION_DEFAULTS.applicationsDays, unfinished_authorizations_days: RETENTION_DEFAULTS.unfinishedAuthorizationsDays },
      updated_at: settings.updatedAt?.toISOString() ?? null,
    };
  };
  return [
    defineRoute({
      method: 'get',
      path: '/retention',
      operationId: 'getRetentionSettings',
      summary: "How long the organization keeps candidates' data (the retention pass erases what is due once a day)",
      tags: ['privacy'],
      auth: ['organization'],
      response: retentionSettingsSchema,
      handler: async ({ principal }) => view(orgId(principal)),
    }),
    defineRoute({
      method: 'patch',
      path: '/retention',
      operationId: 'updateRetentionSettings',
      summary: 'Change how long candidate data is kept; null restores a default',
      tags: ['privacy'],
      auth: ['organization'],
      body: z.object({ applications_days: days.optional(), unfinished_authorizations_days: days.optional() }).strict(),
      response: retentionSettingsSchema,
      handler: async ({ principal, body }) => {
        const current = await s.retention.settings(orgId(principal));
        await s.retention.saveSettings(
          orgId(principal),
          {
            applicationsDays: body.applications_days === undefined ? current.applicationsDays : body.applications_days,
            unfinishedAuthorizationsDays:
              body.unfinished_authorizations_days === undefined ? current.unfinishedAuthorizationsDays : body.unfinished_authorizations_days,
          },
          new Date(),
        );
        return view(orgId(principal));
      },
    }),
    defineRoute({
      method: 'post',
      path: '/retention/run',
      operationId: 'runRetention',
      summary: 'Operator: run the retention pass now (it runs daily anyway); outside production, as_of applies the rules at a test clock time',
      tags: ['privacy'],
      auth: ['operator'],
      body: z.object({ as_of: z.iso.datetime({ offset: true }).optional() }).strict(),
      response: retentionReportSchema,
      handler: async ({ body }) => {
        if (body.as_of && s.production) throw forbidden('test_clock_in_production', 'as_of (a test clock) is refused in production');
        return s.sweep().run(body.as_of ? new Date(body.as_of) : undefined);
      },
    }),
  ];
}
