/**
 * Mounted at /v1/compliance: who holds which credential for which requirement, and whether
 * it is current (JSON pages, or the whole filtered list as CSV, streamed page by page), the
 * organization's reminder schedule, and (outside production) a sweep run at a test clock's time.
 */
import { once } from 'node:events';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, z, type RouteDefinition } from '../../../platform/http/route';
import { isoDateTime, listOf } from '../../../platform/http/common-schemas';
import { notFound } from '../../../kernel/errors';
import type { ComplianceService } from '../domain/compliance-service';
import type { ComplianceStatus, HeldCredential } from '../domain/held-credential';
import { reminderDaysSchema } from '../domain/reminder-schedule';
import { csvLine } from './csv';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;
const CSV_PAGE = 1000;

const complianceQuery = z
  .object({
    requirement: z.string().max(63).optional().meta({ description: "A requirement's key" }),
    status: z.enum(['compliant', 'expiring', 'expired', 'revoked', 'untrusted']).optional(),
    listing_id: z.string().max(100).optional(),
    profile_user_id: z.string().max(100).optional(),
    subject: z.enum(['candidate', 'employee']).optional().meta({ description: "Whose credentials: candidates' (for listings) or employees' (for roles)" }),
    role_id: z.string().max(100).optional().meta({ description: "An employee role's id (employees' credentials only)" }),
    employee_id: z.string().max(100).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(25),
    starting_after: z.string().max(100).optional(),
  })
  .strict();

export const complianceRecordSchema = z
  .object({
    object: z.literal('compliance_record'),
    id: z.string(),
    profile_user_id: z.string(),
    listing_id: z.string(),
    requirement: z.string(),
    credential_type: z.string(),
    source: z.enum(['document_review', 'vc_jwt', 'data_integrity']),
    source_id: z.string(),
    expires_at: isoDateTime,
    status: z.enum(['compliant', 'expiring', 'expired', 'revoked', 'untrusted']).meta({
      description:
        "expiring: within the organization's furthest reminder (default 30 days); expired: past expires_at; revoked: its issuer revoked or suspended it (found by a re-verification); untrusted: its issuer is no longer on the trust list (or its proof no longer checks out)",
    }),
    status_reason: z
      .string()
      .nullable()
      .meta({ description: 'Why it is revoked or untrusted: credential_revoked, credential_suspended, issuer_untrusted, signature_invalid' }),
    verified_at: isoDateTime.nullable().meta({ description: 'Verifiable credentials: when its proof, status and issuer last checked out' }),
    subject: z.enum(['candidate', 'employee']).meta({ description: 'employee: profile_user_id and listing_id carry the employee and role ids' }),
    employee_id: z.string().nullable(),
    role_id: z.string().nullable(),
  })
  .meta({ id: 'ComplianceRecord' });

const complianceListSchema = listOf(complianceRecordSchema);

const settingsSchema = z.object({ object: z.literal('compliance_settings'), reminder_days: z.array(z.number().int()) }).meta({ id: 'ComplianceSettings' });

const CSV_HEADER = ['id', 'profile_user_id', 'listing_id', 'requirement', 'credential_type', 'source', 'source_id', 'expires_at', 'status', 'subject'];

function recordView(credential: HeldCredential, status: ComplianceStatus): z.output<typeof complianceRecordSchema> {
  return {
    object: 'compliance_record',
    id: credential.id,
    profile_user_id: credential.profileUserId,
    listing_id: credential.listingId,
    requirement: credential.requirementKey,
    credential_type: credential.credentialType,
    source: credential.source,
    source_id: credential.sourceId,
    expires_at: credential.expiresAt.toISOString(),
    status,
    status_reason: credential.stateReason,
    verified_at: credential.verifiedAt?.toISOString() ?? null,
    subject: credential.subject,
    employee_id: credential.subject === 'employee' ? credential.profileUserId : null,
    role_id: credential.subject === 'employee' ? credential.listingId : null,
  };
}

export function complianceRoutes(compliance: ComplianceService, options: { testClocks: boolean }): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'get',
      path: '/',
      operationId: 'listCompliance',
      summary:
        'Who holds which credential for which requirement, and whether it is current (filters: requirement, status, listing_id, profile_user_id, subject, role_id, employee_id; cursor pagination). With Accept: text/csv, the whole filtered list as CSV, streamed',
      tags: ['credentials'],
      auth: ['organization'],
      query: complianceQuery,
      response: complianceListSchema,
      produces: ['application/json', 'text/csv'],
      // license_required without background_checks.compliance_tracking.
      errors: [403],
      handler: async ({ principal, query, req, res }) => {
        const filters = {
          organizationId: orgId(principal),
          requirementKey: query.requirement,
          // A role or an employee names employees' records (their role and employee ids are kept as listing and profile ids).
          listingId: query.role_id ?? query.listing_id,
          profileUserId: query.employee_id ?? query.profile_user_id,
          subject: query.role_id || query.employee_id ? ('employee' as const) : query.subject,
          status: query.status,
        };
        if (req.accepts(['application/json', 'text/csv']) === 'text/csv') {
          // The first page is read before anything is written: a refusal (no license) is still a JSON error.
          let page = await compliance.list({ ...filters, limit: CSV_PAGE, startingAfter: query.starting_after });
          res.setHeader('Content-Type', 'text/csv; charset=utf-8');
          res.setHeader('Content-Disposition', 'attachment; filename="compliance.csv"');
          res.setHeader('Cache-Control', 'no-store');
          res.status(200);
          res.write(csvLine(CSV_HEADER));
          try {
            for (;;) {
              const chunk = page.data
                .map(({ credential: c, status }) =>
                  csvLine([
                    c.id,
                    c.profileUserId,
                    c.listingId,
                    c.requirementKey,
                    c.credentialType,
                    c.source,
                    c.sourceId,
                    c.expiresAt.toISOString(),
                    status,
                    c.subject,
                  ]),
                )
                .join('');
              // Back-pressure: a slow reader holds the next page back.
              if (chunk && !res.write(chunk)) await once(res, 'drain');
              if (!page.hasMore || page.data.length === 0) break;
              page = await compliance.list({ ...filters, limit: CSV_PAGE, startingAfter: page.data[page.data.length - 1]!.credential.id });
            }
          } catch (error) {
            // Past the status line a failure can only cut the download short, never pass for its end.
            res.destroy(error as Error);
            return undefined;
          }
          res.end();
          return undefined;
        }
        const page = await compliance.list({ ...filters, limit: query.limit, startingAfter: query.starting_after });
        return { object: 'list', data: page.data.map((r) => recordView(r.credential, r.status)), has_more: page.hasMore, url: '/v1/compliance' };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/settings',
      operationId: 'getComplianceSettings',
      summary: 'The reminder schedule: days before an expiry when credential.expiring fires (default 30 and 7)',
      tags: ['credentials'],
      auth: ['organization'],
      response: settingsSchema,
      handler: async ({ principal }) => ({ object: 'compliance_settings', reminder_days: (await compliance.settingsOf(orgId(principal))).reminderDays }),
    }),
    defineRoute({
      method: 'put',
      path: '/settings',
      operationId: 'putComplianceSettings',
      summary: 'Sets the reminder schedule (at most 5 thresholds, 1–365 days before an expiry)',
      tags: ['credentials'],
      auth: ['organization'],
      body: z.object({ reminder_days: reminderDaysSchema }).strict(),
      response: settingsSchema,
      handler: async ({ principal, body }) => ({
        object: 'compliance_settings',
        reminder_days: (await compliance.putSettings(orgId(principal), { reminderDays: body.reminder_days })).reminderDays,
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/operator/sweep',
      operationId: 'operatorRunComplianceSweep',
      summary:
        'Operator, outside production: runs the compliance sweep now, or as of `at` (a test clock: kept verifiable credentials due are verified again, and notices due by then go out once, as the scheduled job would send them)',
      tags: ['credentials'],
      auth: ['operator'],
      body: z.object({ at: z.iso.datetime({ offset: true }).optional() }).strict(),
      response: z.object({
        expiring: z.number().int(),
        expired: z.number().int(),
        reminded: z.number().int().meta({ description: 'Reminder emails sent to holders (with credential.expiring)' }),
        reminders_failed: z.number().int().meta({ description: 'Reminder emails that failed (their action runs say why)' }),
        reverified: z.number().int().meta({ description: 'Kept verifiable credentials verified again' }),
        revoked: z.number().int(),
        untrusted: z.number().int(),
      }),
      handler: async ({ body }) => {
        if (!options.testClocks) throw notFound('test clock');
        return compliance.sweep(body.at ? new Date(body.at) : undefined);
      },
    }),
  ];
}
