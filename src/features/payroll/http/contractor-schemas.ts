/** Contractors and contractor exports (zod: validation and /v1/openapi.json). */
import { z } from 'zod';
import { isoDateTime } from '../../../platform/http/common-schemas';

const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => ![...v].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f), 'expected no control characters');

export const contractorBody = z.strictObject({
  worker_id: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/, 'expected 1-128 letters, digits, . _ : or -')
    .meta({ description: "Your id for the worker: the placements' worker_id and the payout worker's reference", example: 'wrk_1042' }),
  email: z.email().max(254).meta({ example: 'rosa@workers.example' }),
  legal_name: text(200).meta({ description: 'The name on the W-9 (a person or a business)', example: 'Rosa Díaz' }),
  tin_type: z.enum(['ssn', 'ein', 'itin']),
  tin_last4: z
    .string()
    .regex(/^[0-9]{4}$/, 'expected the last four digits only: the full TIN is never sent here')
    .meta({ description: 'The last four digits of the TIN; the full number stays with whoever files the forms', example: '6789' }),
  address_line1: text(200).meta({ example: '1200 Harbor Way' }),
  address_line2: text(200).optional(),
  city: text(100).meta({ example: 'Oakland' }),
  region: text(100).meta({ description: 'State or province (US: the two-letter code)', example: 'CA' }),
  postal_code: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/, 'expected a postal code')
    .meta({ example: '94607' }),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'an ISO 3166-1 alpha-2 country code')
    .default('US'),
});

export const contractorSchema = z
  .object({
    id: z.string().meta({ example: 'pctr_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('contractor'),
    worker_id: z.string(),
    email: z.string(),
    legal_name: z.string(),
    tin_type: z.enum(['ssn', 'ein', 'itin']),
    tin_last4: z.string(),
    address_line1: z.string(),
    address_line2: z.string().nullable(),
    city: z.string(),
    region: z.string(),
    postal_code: z.string(),
    country: z.string(),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'Contractor' });

export const exportBody = z.strictObject({
  tax_year: z.number().int().min(2000).max(2100).meta({ description: 'The calendar year (UTC) the payments were made in', example: 2026 }),
  destination: z
    .enum(['sftp', 'download'])
    .default('download')
    .meta({ description: "sftp: delivered to the organization's SFTP server (payroll_files connection); download: the file is in the answer" }),
});

export const exportSchema = z
  .object({
    object: z.literal('contractor_export'),
    tax_year: z.number().int(),
    format: z.literal('contractor_1099.v1'),
    destination: z.enum(['sftp', 'download']),
    file_name: z.string().meta({ example: 'contractors-1099-2026-3f2a9c0d41be.csv' }),
    path: z.string().nullable().meta({ description: 'Where the SFTP server holds the file (sftp only)' }),
    sha256: z.string().meta({ description: "Hex SHA-256 of the file's bytes (UTF-8); the run's reference is sha256:<hex>" }),
    rows: z.number().int(),
    total_paid_cents: z
      .record(z.string(), z.number().int())
      .meta({ description: 'Per currency: the sum of the file’s total_paid_cents', example: { USD: 124688 } }),
    unregistered_worker_ids: z.array(z.string()).meta({ description: 'Workers paid in the year without a contractor record: not in the file' }),
    run_id: z.string(),
    content: z.string().nullable().meta({ description: 'The CSV itself (download only)' }),
  })
  .meta({ id: 'ContractorExport' });

export const hoursBatchBody = z.strictObject({
  date: z.iso.date().meta({ description: 'The UTC day whose approved timesheets the batch holds (a finished day)', example: '2026-11-27' }),
  destination: z.enum(['sftp', 'download']).default('download'),
});

export const hoursBatchSchema = z
  .object({
    object: z.literal('hours_batch'),
    date: z.string(),
    format: z.literal('hours.v1'),
    destination: z.enum(['sftp', 'download']),
    file_name: z.string().meta({ example: 'hours-2026-11-27.csv' }),
    path: z.string().nullable(),
    sha256: z.string(),
    rows: z.number().int(),
    run_id: z.string(),
    content: z.string().nullable().meta({ description: 'The CSV itself (download only)' }),
  })
  .meta({ id: 'HoursBatch' });

export const changeBatchBody = z.strictObject({
  date: z.iso.date().meta({
    description: 'The UTC day whose recorded changes (employee.updated, employee.terminated) the batch holds (a finished day)',
    example: '2026-11-27',
  }),
  destination: z.enum(['sftp', 'download']).default('download'),
});

export const changeBatchSchema = z
  .object({
    object: z.literal('change_batch'),
    date: z.string(),
    format: z.literal('change.v1'),
    destination: z.enum(['sftp', 'download']),
    file_name: z.string().meta({ example: 'changes-2026-11-27.csv' }),
    path: z.string().nullable(),
    sha256: z.string(),
    rows: z.number().int(),
    run_id: z.string(),
    content: z.string().nullable().meta({ description: 'The CSV itself (download only)' }),
  })
  .meta({ id: 'ChangeBatch' });

export const newHireBatchBody = z.strictObject({
  date: z.iso.date().meta({ description: 'The UTC day whose recorded hires (candidate.hired) the file holds (a finished day)', example: '2026-11-27' }),
  destination: z
    .enum(['download'])
    .default('download')
    .meta({ description: 'download only: over SFTP each hire already leaves as its own new-hire-<candidate_id>.csv' }),
});

export const newHireBatchSchema = z
  .object({
    object: z.literal('new_hire_batch'),
    date: z.string(),
    format: z.literal('new_hire.v1'),
    destination: z.literal('download'),
    file_name: z.string().meta({ example: 'new-hires-2026-11-27.csv' }),
    sha256: z.string(),
    rows: z.number().int(),
    run_id: z.string(),
    content: z.string().meta({ description: 'The CSV itself' }),
  })
  .meta({ id: 'NewHireBatch' });

export const teamMemberExportBody = z.strictObject({
  status: z
    .enum(['active', 'all'])
    .default('active')
    .meta({ description: 'active: the current team members (change upsert); all: the terminated ones too (change deactivate)' }),
  destination: z.enum(['download']).default('download').meta({ description: 'download only: the pos-csv connection delivers each change over SFTP' }),
});

export const teamMemberExportSchema = z
  .object({
    object: z.literal('team_member_export'),
    format: z.literal('pos_team_member.v1'),
    status: z.enum(['active', 'all']),
    destination: z.literal('download'),
    file_name: z.string().meta({ example: 'team-members-3f2a9c0d41be.csv' }),
    sha256: z.string().meta({ description: "Hex SHA-256 of the file's bytes (UTF-8); the run's reference is sha256:<hex>" }),
    rows: z.number().int(),
    run_id: z.string(),
    content: z.string().meta({ description: 'The CSV itself: one row per team member, for the POS web import' }),
  })
  .meta({ id: 'TeamMemberExport' });
