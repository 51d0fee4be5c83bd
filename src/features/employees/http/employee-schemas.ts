import { z } from '../../../platform/http/route';
import { isoDateTime } from '../../../platform/http/common-schemas';
import { credentialRequirementSchema, credentialRequirementsSchema } from '../../listings/domain/credential-requirements';
import type { Employee } from '../domain/employee';
import type { EmployeeDocument } from '../domain/employee-document';
import { documentFileFields, reviewedDocumentFields, reviewedDocumentFieldsView } from '../../credential-documents/http/reviewed-document-schemas';
import type { Role } from '../domain/role';
import type { EmployeeCredentialPresentation } from '../domain/employee-service';
import { verifiableCredentialInputSchema } from '../../credential-checks/domain/presented-input-schema';
import { requirementOutcomeSchema } from '../../credential-checks/http/credential-check-schemas';
import type { RequirementStanding } from '../domain/requirement-standing';

export const roleParams = z.object({ role_id: z.string().max(100) });
export const employeeParams = z.object({ employee_id: z.string().max(100) });
export const employeeDocumentParams = z.object({ employee_id: z.string().max(100), document_id: z.string().max(100) });
export const pageQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(25), starting_after: z.string().max(100).optional() }).strict();

export const createRoleBody = z
  .object({
    name: z.string().trim().min(1).max(200).meta({ example: 'Registered nurse' }),
    requirements: credentialRequirementsSchema
      .default([])
      .meta({ description: 'What employees in the role must hold (the model of listing requirements, docs/credentials.md)' }),
  })
  .strict();
export const updateRoleBody = z.object({ name: z.string().trim().min(1).max(200).optional(), requirements: credentialRequirementsSchema.optional() }).strict();

export const roleSchema = z
  .object({
    object: z.literal('role'),
    id: z.string(),
    name: z.string(),
    requirements: z.array(credentialRequirementSchema),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'Role' });

const language = z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a BCP 47 language tag');
const phone = z.string().regex(/^\+[1-9][0-9]{6,14}$/, 'an E.164 phone number');

export const createEmployeeBody = z
  .object({
    external_id: z.string().trim().min(1).max(100).meta({ description: "The host's (HRIS) id of the employee, unique in the organization" }),
    name: z.string().trim().min(1).max(200),
    email: z.email().max(320),
    phone: phone.nullable().default(null),
    language: language.default('en'),
    roles: z.array(z.string().min(1).max(100)).max(20).default([]).meta({ description: 'Role ids the employee holds' }),
  })
  .strict();
export const updateEmployeeBody = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    email: z.email().max(320).optional(),
    phone: phone.nullable().optional(),
    language: language.optional(),
    roles: z.array(z.string().min(1).max(100)).max(20).optional(),
  })
  .strict();
export const listEmployeesQuery = pageQuery.extend({ role_id: z.string().max(100).optional() }).strict();

export const employeeSchema = z
  .object({
    object: z.literal('employee'),
    id: z.string(),
    external_id: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    language: z.string(),
    roles: z.array(z.string()),
    created_at: isoDateTime,
    updated_at: isoDateTime,
  })
  .meta({ id: 'Employee' });

export const standingSchema = z
  .object({
    object: z.literal('employee_compliance'),
    employee_id: z.string(),
    roles: z.array(
      z.object({
        role_id: z.string(),
        requirements: z.array(
          z.object({
            requirement: z.string(),
            status: z.enum(['met', 'expiring', 'expired', 'missing']),
            reason: z
              .string()
              .nullable()
              .meta({ description: 'no_matching_credential, credential_expired, validity_below_minimum, credential_revoked, issuer_untrusted' }),
            expires_at: isoDateTime.nullable(),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'EmployeeCompliance' });

export const uploadLinkBody = z
  .object({ role_id: z.string().min(1).max(100), requirement: z.string().min(1).max(63).meta({ example: 'rn_license' }) })
  .strict();
export const uploadLinkSchema = z
  .object({ object: z.literal('employee_upload_link'), url: z.string(), expires_at: isoDateTime, delivery_id: z.string() })
  .meta({ id: 'EmployeeUploadLink' });

export const linkUploadBody = (maxBytes: number) => z.object(documentFileFields(maxBytes)).strict();
export const linkQuery = z.object({ token: z.string().min(1).max(2000) }).strict();

export { approveBody, rejectBody } from '../../credential-documents/http/reviewed-document-schemas';

export const employeeDocumentSchema = z
  .object({
    object: z.literal('employee_document'),
    id: z.string(),
    employee_id: z.string(),
    role_id: z.string(),
    ...reviewedDocumentFields,
  })
  .meta({ id: 'EmployeeDocument' });

export const roleView = (r: Role): z.output<typeof roleSchema> => ({
  object: 'role',
  id: r.id,
  name: r.name,
  requirements: r.requirements,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString(),
});

export const employeeView = (e: Employee): z.output<typeof employeeSchema> => ({
  object: 'employee',
  id: e.id,
  external_id: e.externalId,
  name: e.name,
  email: e.email,
  phone: e.phone,
  language: e.language,
  roles: e.roleIds,
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt.toISOString(),
});

export const standingView = (s: RequirementStanding) => ({
  requirement: s.requirement,
  status: s.status,
  reason: s.reason,
  expires_at: s.expiresAt?.toISOString() ?? null,
});

export const employeeDocumentView = (d: EmployeeDocument): z.output<typeof employeeDocumentSchema> => ({
  object: 'employee_document',
  id: d.id,
  employee_id: d.employeeId,
  role_id: d.roleId,
  ...reviewedDocumentFieldsView(d),
});

export const roleComplianceSchema = z
  .object({
    object: z.literal('list'),
    data: z.array(
      z.object({
        object: z.literal('role_compliance'),
        employee_id: z.string(),
        external_id: z.string(),
        name: z.string(),
        status: z.enum(['met', 'expiring', 'expired', 'missing']).meta({ description: 'The worst of the requirements: missing > expired > expiring > met' }),
        requirements: z.array(
          z.object({
            requirement: z.string(),
            status: z.enum(['met', 'expiring', 'expired', 'missing']),
            reason: z.string().nullable(),
            expires_at: isoDateTime.nullable(),
          }),
        ),
      }),
    ),
    has_more: z.boolean(),
    url: z.string(),
  })
  .meta({ id: 'RoleCompliance' });

const WORST = ['missing', 'expired', 'expiring', 'met'] as const;
export const worstOf = (standings: RequirementStanding[]) => WORST.find((w) => standings.some((s) => s.status === w)) ?? 'met';

const presentedCredential = verifiableCredentialInputSchema.meta({
  description: 'A VC-JWT or a VC secured with a Data Integrity proof (eddsa-rdfc-2022), Open Badges 3.0 included: examined as a candidate’s',
});

/** Through the signed link: the link names the role and requirement. */
export const linkPresentBody = z.object({ credential: presentedCredential }).strict();

/** Through the API: the host names them. */
export const presentCredentialBody = z
  .object({ role_id: z.string().min(1).max(100), requirement: z.string().min(1).max(63).meta({ example: 'rn_license' }), credential: presentedCredential })
  .strict();

export const credentialPresentationSchema = z
  .object({
    object: z.literal('employee_credential_presentation'),
    employee_id: z.string(),
    role_id: z.string(),
    ...requirementOutcomeSchema.shape,
    held: z.boolean().meta({
      description: 'Met, and held from now on: tracked until it expires and verified again on schedule (false when met but one expiring later is already held)',
    }),
    expires_at: isoDateTime.nullable().meta({ description: 'The expiry of the credential held for the requirement once this one met it; null when not met' }),
  })
  .meta({ id: 'EmployeeCredentialPresentation' });

export const credentialPresentationView = (p: EmployeeCredentialPresentation): z.output<typeof credentialPresentationSchema> => ({
  object: 'employee_credential_presentation',
  employee_id: p.employeeId,
  role_id: p.roleId,
  ...p.outcome,
  held: p.held,
  expires_at: p.expiresAt?.toISOString() ?? null,
});
