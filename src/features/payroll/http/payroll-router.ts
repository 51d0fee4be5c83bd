/**
 * Mounted at /v1/payroll: contractors' W-9 details (TIN last four only) and the contractor/1099
 * export (payroll.contractor_export), and the daily worked-hours batch (payroll.payroll_sync), to
 * the organization's SFTP server or for download.
 */
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { Contractor } from '../domain/contractor';
import type { ContractorExports } from '../domain/contractor-exports';
import type { ChangeBatches } from '../domain/change-batches';
import type { DailyFile } from '../domain/daily-files';
import type { HoursBatches } from '../domain/hours-batches';
import {
  changeBatchBody,
  changeBatchSchema,
  contractorBody,
  contractorSchema,
  exportBody,
  exportSchema,
  hoursBatchBody,
  hoursBatchSchema,
  newHireBatchBody,
  newHireBatchSchema,
} from './contractor-schemas';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

const contractorView = (c: Contractor): z.output<typeof contractorSchema> => ({
  id: c.id,
  object: 'contractor',
  worker_id: c.workerId,
  email: c.email,
  legal_name: c.legalName,
  tin_type: c.tinType,
  tin_last4: c.tinLast4,
  address_line1: c.addressLine1,
  address_line2: c.addressLine2,
  city: c.city,
  region: c.region,
  postal_code: c.postalCode,
  country: c.country,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

export function payrollRoutes(exports: ContractorExports, hours: HoursBatches, changes: ChangeBatches): RouteDefinition<any, any, any>[] {
  return [
    defineRoute({
      method: 'post',
      path: '/contractors',
      operationId: 'saveContractor',
      summary: "A contractor's W-9 details for the 1099 export (TIN last four digits only); the same worker_id again replaces them",
      tags: ['payroll'],
      auth: ['organization'],
      body: contractorBody,
      status: 201,
      response: contractorSchema,
      alsoAnswers: [200],
      errors: [403],
      handler: async ({ principal, body }) => {
        const { contractor, created } = await exports.save(orgId(principal), {
          workerId: body.worker_id,
          email: body.email,
          legalName: body.legal_name,
          tinType: body.tin_type,
          tinLast4: body.tin_last4,
          addressLine1: body.address_line1,
          addressLine2: body.address_line2 ?? null,
          city: body.city,
          region: body.region,
          postalCode: body.postal_code,
          country: body.country,
        });
        return reply(created ? 201 : 200, contractorView(contractor));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/contractors/:contractor_id',
      operationId: 'getContractor',
      summary: 'One contractor',
      tags: ['payroll'],
      auth: ['organization'],
      params: z.object({ contractor_id: z.string().max(100) }),
      response: contractorSchema,
      handler: async ({ principal, params }) => contractorView(await exports.get(orgId(principal), params.contractor_id)),
    }),
    defineRoute({
      method: 'post',
      path: '/contractor_exports',
      operationId: 'createContractorExport',
      summary:
        'The contractor/1099 file of a tax year (contractor_1099.v1 CSV, integer cents): delivered to the SFTP server or answered for download, as an action run with its SHA-256',
      tags: ['payroll'],
      auth: ['organization'],
      body: exportBody,
      status: 201,
      response: exportSchema,
      // connection_missing, file_exists, connection_host_key_mismatch, permission_denied; 503 while the server is away.
      errors: [403, 409, 503],
      handler: async ({ principal, body }) => {
        const e = await exports.export(orgId(principal), body.tax_year, body.destination);
        return reply(201, {
          object: 'contractor_export' as const,
          tax_year: e.taxYear,
          format: e.format,
          destination: e.destination,
          file_name: e.fileName,
          path: e.path,
          sha256: e.sha256,
          rows: e.rows,
          total_paid_cents: e.totalPaidCents,
          unregistered_worker_ids: e.unregisteredWorkerIds,
          run_id: e.runId,
          content: e.content,
        });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/hours_batches',
      operationId: 'createHoursBatch',
      summary:
        "A finished day's worked hours for payroll (payroll.payroll_sync): the timesheets approved that UTC day as an hours.v1 CSV, delivered to the SFTP server (once per day) or answered for download, as an action run",
      tags: ['payroll'],
      auth: ['organization'],
      body: hoursBatchBody,
      status: 201,
      response: hoursBatchSchema,
      errors: [403, 409, 503],
      handler: async ({ principal, body }) => {
        const b = await hours.deliver(orgId(principal), body.date, body.destination);
        return reply(201, { object: 'hours_batch' as const, ...dailyFileJson(b), format: b.format });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/change_batches',
      operationId: 'createChangeBatch',
      summary:
        "A finished day's changes for payroll (payroll.payroll_sync): the updates, rehires and terminations recorded that UTC day as a change.v1 CSV (old → new pay rate in integer minor units), delivered to the SFTP server (once per day) or answered for download, as an action run",
      tags: ['payroll'],
      auth: ['organization'],
      body: changeBatchBody,
      status: 201,
      response: changeBatchSchema,
      errors: [403, 409, 503],
      handler: async ({ principal, body }) => {
        const b = await changes.deliver(orgId(principal), body.date, body.destination);
        return reply(201, { object: 'change_batch' as const, ...dailyFileJson(b), format: 'change.v1' as const });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/new_hire_batches',
      operationId: 'createNewHireBatch',
      summary:
        "A finished day's hires for a payroll system with only a web import (payroll.payroll_sync): the hires recorded that UTC day as one new_hire.v1 CSV for download, as an action run with its SHA-256",
      tags: ['payroll'],
      auth: ['organization'],
      body: newHireBatchBody,
      status: 201,
      response: newHireBatchSchema,
      errors: [403],
      handler: async ({ principal, body }) => {
        const b = await changes.downloadNewHires(orgId(principal), body.date);
        return reply(201, {
          object: 'new_hire_batch' as const,
          date: b.date,
          format: 'new_hire.v1' as const,
          destination: 'download' as const,
          file_name: b.fileName,
          sha256: b.sha256,
          rows: b.rows,
          run_id: b.runId,
          content: b.content ?? '',
        });
      },
    }),
  ];
}

/** A day's payroll file as the API answers it (`content` only for a download). */
function dailyFileJson(b: DailyFile) {
  return {
    date: b.date,
    destination: b.destination,
    file_name: b.fileName,
    path: b.path,
    sha256: b.sha256,
    rows: b.rows,
    run_id: b.runId,
    content: b.content,
  };
}
