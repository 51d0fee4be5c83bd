/**
 * Roles, employees and their credentials. An employee's requirements are those of their
 * roles; what they hold is tracked by compliance like a candidate's (subject `employee`:
 * the held credential names the employee and the role), so reminders, credential.expiring /
 * credential.expired and GET /v1/compliance cover them. Employees have no account: through a
 * signed link emailed to them they upload a document, which a reviewer approves with the expiry
 * read on it, or present a verifiable credential, held at once when its proof, issuer, validity
 * and status check out (and verified again on schedule, as a candidate's).
 */
import { DomainError, conflict, invalid, notFound } from '../../../kernel/errors';
import { newId } from '../../../kernel/ids';
import type { CredentialRequirement } from '../../listings/domain/credential-requirements';
import type { RequirementOutcome } from '../../credential-checks/domain/match-requirements';
import type { BlobStore } from '../../credential-documents/domain/blob-store';
import { DocumentReview } from '../../credential-documents/domain/document-review';
import { COMPLIANCE_TRACKING, type ComplianceService } from '../../compliance/domain/compliance-service';
import type { NotificationConnector } from '../../hooks/domain/connectors';
import type { Entitlements } from '../../licensing/domain/entitlements';
import type { SignedLinks } from '../../messages/domain/signed-links';
import type { Employee, EmployeeChanges, EmployeeRepository } from './employee';
import type { EmployeeDocument, EmployeeDocumentRepository, EmployeeSubject } from './employee-document';
import type { Role, RoleRepository } from './role';
import { standingOf, type RequirementStanding } from './requirement-standing';
import { uploadLinkMessage } from './upload-link-message';
import type { PresentedVerifiableCredential, RoleCredentialChecker } from './role-credential-check';

/** An upload link is good for two weeks: long enough to find the card, short enough not to linger in inboxes. */
export const UPLOAD_LINK_TTL_MS = 14 * 86_400_000;

export interface EmployeeServiceOptions {
  baseUrl: string;
  maxBytes: number;
}

/** What a presented credential did for the employee's requirement: `held` when compliance tracks it from now on; `expiresAt` that of the one held. */
export interface EmployeeCredentialPresentation {
  employeeId: string;
  roleId: string;
  outcome: RequirementOutcome;
  held: boolean;
  expiresAt: Date | null;
}

export interface NewEmployee {
  externalId: string;
  name: string;
  email: string;
  phone: string | null;
  language: string;
  roleIds: string[];
}

export class EmployeeService {
  private readonly documents: DocumentReview<EmployeeSubject>;

  constructor(
    private readonly roles: RoleRepository,
    private readonly employees: EmployeeRepository,
    documents: EmployeeDocumentRepository,
    blobs: BlobStore,
    private readonly compliance: () => ComplianceService,
    private readonly entitlements: Entitlements,
    private readonly links: SignedLinks,
    private readonly email: () => NotificationConnector,
    private readonly options: EmployeeServiceOptions,
    private readonly now: () => Date,
    /** Examines a verifiable credential an employee presents (the credential-checks feature). */
    private readonly credentials: () => RoleCredentialChecker,
  ) {
    this.documents = new DocumentReview(
      documents,
      blobs,
      {
        noun: 'employee document',
        idPrefix: 'edoc',
        maxBytes: options.maxBytes,
        unsupportedType: (message) => new DomainError('unsupported_media_type', 'unsupported_document_type', message),
      },
      now,
    );
  }

  // Roles

  async createRole(organizationId: string, input: { name: string; requirements: CredentialRequirement[] }): Promise<Role> {
    const at = this.now();
    const role: Role = { id: newId('role'), organizationId, name: input.name, requirements: input.requirements, createdAt: at, updatedAt: at };
    await this.roles.insert(role);
    return role;
  }

  async role(organizationId: string, id: string): Promise<Role> {
    const role = await this.roles.get(organizationId, id);
    if (!role) throw notFound('role', id);
    return role;
  }

  listRoles(organizationId: string, limit: number, startingAfter?: string): Promise<Role[]> {
    return this.roles.list(organizationId, limit, startingAfter);
  }

  async updateRole(organizationId: string, id: string, changes: { name?: string; requirements?: CredentialRequirement[] }): Promise<Role> {
    const current = await this.role(organizationId, id);
    const updated = await this.roles.update(organizationId, id, {
      name: changes.name ?? current.name,
      requirements: changes.requirements ?? current.requirements,
      updatedAt: this.now(),
    });
    if (!updated) throw notFound('role', id);
    return updated;
  }

  /** A role still held by an employee is not deleted (their compliance would lose its requirements silently). */
  async deleteRole(organizationId: string, id: string): Promise<void> {
    await this.role(organizationId, id);
    if ((await this.employees.list(organizationId, { limit: 1, roleId: id })).length) {
      throw conflict('role_in_use', 'Employees hold this role: remove it from them first');
    }
    if (!(await this.roles.delete(organizationId, id))) throw notFound('role', id);
  }

  // Employees

  async createEmployee(organizationId: string, input: NewEmployee): Promise<Employee> {
    await this.requireRoles(organizationId, input.roleIds);
    const at = this.now();
    const employee: Employee = { id: newId('emp'), organizationId, ...input, roleIds: [...new Set(input.roleIds)], createdAt: at, updatedAt: at };
    if (!(await this.employees.insert(employee))) {
      throw conflict('employee_exists', `An employee with external_id "${input.externalId}" exists`);
    }
    return employee;
  }

  async employee(organizationId: string, id: string): Promise<Employee> {
    const employee = await this.employees.get(organizationId, id);
    if (!employee) throw notFound('employee', id);
    return employee;
  }

  listEmployees(organizationId: string, query: { limit: number; startingAfter?: string; roleId?: string }): Promise<Employee[]> {
    return this.employees.list(organizationId, query);
  }

  async updateEmployee(organizationId: string, id: string, changes: EmployeeChanges): Promise<Employee> {
    const current = await this.employee(organizationId, id);
    if (changes.roleIds) {
      await this.requireRoles(organizationId, changes.roleIds);
      changes = { ...changes, roleIds: [...new Set(changes.roleIds)] };
    }
    const updated = await this.employees.update(organizationId, id, changes, this.now());
    if (!updated) throw notFound('employee', id);
    // A role given up is no longer tracked (no reminders for a license the job no longer needs).
    const dropped = current.roleIds.filter((r) => !updated.roleIds.includes(r));
    if (dropped.length) await this.compliance().forgetEmployee(organizationId, id, dropped);
    return updated;
  }

  /** Deletes the employee, their documents (files, then rows) and their tracked credentials. */
  async deleteEmployee(organizationId: string, id: string): Promise<void> {
    await this.employee(organizationId, id);
    await this.documents.deleteFiles(organizationId, { employeeId: id });
    await this.compliance().forgetEmployee(organizationId, id);
    if (!(await this.employees.delete(organizationId, id))) throw notFound('employee', id);
  }

  /** Where the employee stands on every requirement of every role they hold (compliance_tracking). */
  async standing(organizationId: string, id: string): Promise<{ roleId: string; standings: RequirementStanding[] }[]> {
    // Another organization's id is a 404 whatever the license.
    const employee = await this.employee(organizationId, id);
    await this.entitlements.requireActive(organizationId, COMPLIANCE_TRACKING);
    const roles = await this.roles.getMany(organizationId, employee.roleIds);
    const compliance = this.compliance();
    const expiringWithinDays = Math.max(...(await compliance.settingsOf(organizationId)).reminderDays, 0);
    const held = (await compliance.list({ organizationId, profileUserId: employee.id, subject: 'employee', limit: 100 })).data.map((r) => r.credential);
    const now = this.now();
    return roles.map((role) => ({
      roleId: role.id,
      standings: role.requirements.map((requirement) =>
        standingOf(
          requirement,
          held.find((h) => h.listingId === role.id && h.requirementKey === requirement.key),
          now,
          expiringWithinDays,
        ),
      ),
    }));
  }

  /** Every employee holding the role (a page, in id order) and where each stands on its requirements: who is out of compliance, missing ones included. */
  async roleStanding(organizationId: string, roleId: string, limit: number, startingAfter?: string) {
    const role = await this.role(organizationId, roleId);
    await this.entitlements.requireActive(organizationId, COMPLIANCE_TRACKING);
    const compliance = this.compliance();
    const expiringWithinDays = Math.max(...(await compliance.settingsOf(organizationId)).reminderDays, 0);
    const employees = await this.employees.list(organizationId, { limit: limit + 1, roleId, ...(startingAfter ? { startingAfter } : {}) });
    const now = this.now();
    const data = await Promise.all(
      employees.slice(0, limit).map(async (employee) => {
        const held = (await compliance.list({ organizationId, profileUserId: employee.id, listingId: role.id, subject: 'employee', limit: 100 })).data.map(
          (r) => r.credential,
        );
        return {
          employee,
          standings: role.requirements.map((requirement) =>
            standingOf(
              requirement,
              held.find((h) => h.requirementKey === requirement.key),
              now,
              expiringWithinDays,
            ),
          ),
        };
      }),
    );
    return { data, hasMore: employees.length > limit };
  }

  // Documents through a signed link

  /**
   * Emails the employee a link to upload a document for one requirement of one of their roles,
   * through the organization's email connection (an action run of compliance tracking).
   */
  async sendUploadLink(organizationId: string, employeeId: string, roleId: string, requirementKey: string, idempotencyKey: string) {
    const employee = await this.employee(organizationId, employeeId);
    await this.entitlements.requireActive(organizationId, COMPLIANCE_TRACKING);
    const { requirement } = await this.requirementOf(employee, roleId, requirementKey);
    const expiresAt = new Date(this.now().getTime() + UPLOAD_LINK_TTL_MS);
    const token = this.links.sign({
      p: 'employee_document_upload',
      o: organizationId,
      r: `${employee.id}:${roleId}:${requirement.key}`,
      x: Math.floor(expiresAt.getTime() / 1000),
    });
    const url = `${this.options.baseUrl.replace(/\/+$/, '')}/v1/employee-uploads?token=${encodeURIComponent(token)}`;
    const message = uploadLinkMessage(employee, requirement.label, url, expiresAt);
    const delivery = await this.email().sendEmail({
      organizationId,
      actionKey: COMPLIANCE_TRACKING,
      idempotencyKey: `employee-upload-link:${employee.id}:${idempotencyKey}`,
      to: { name: employee.name, email: employee.email },
      ...message,
    });
    return { url, expiresAt, deliveryId: delivery.deliveryId };
  }

  /** An upload through a signed link: the link checked here, then the file (size, type) before anything is written. */
  async uploadWithLink(token: string, upload: { fileName: string; content: Buffer }): Promise<EmployeeDocument> {
    const { employee, roleId, requirement } = await this.linkTarget(token);
    return this.documents.receive(employee.organizationId, { employeeId: employee.id, roleId }, requirement, upload);
  }

  /** The employee, role and requirement a signed link names (410 link_expired once the employee or role is gone). */
  private async linkTarget(token: string): Promise<{ employee: Employee; roleId: string; requirement: CredentialRequirement }> {
    const claims = this.links.verify(token, 'employee_document_upload', this.now());
    const [employeeId, roleId, requirementKey] = claims.r.split(':');
    const employee = await this.employees.get(claims.o, employeeId ?? '');
    // The employee was removed, or no longer holds the role: the link is spent.
    if (!employee || !roleId || !requirementKey) throw new DomainError('gone', 'link_expired', 'This link is no longer valid');
    const { requirement } = await this.requirementOf(employee, roleId, requirementKey).catch(() => {
      throw new DomainError('gone', 'link_expired', 'This link is no longer valid');
    });
    return { employee, roleId, requirement };
  }

  /** A verifiable credential presented through the signed link, for the requirement the link names. */
  async presentWithLink(token: string, credential: PresentedVerifiableCredential): Promise<EmployeeCredentialPresentation> {
    const { employee, roleId, requirement } = await this.linkTarget(token);
    return this.present(employee, roleId, requirement, credential);
  }

  /** The same through the API (the host presents a credential its HRIS holds for the employee). */
  async presentCredential(
    organizationId: string,
    employeeId: string,
    target: { roleId: string; requirementKey: string },
    credential: PresentedVerifiableCredential,
  ): Promise<EmployeeCredentialPresentation> {
    // Another organization's id is a 404 whatever the license.
    const employee = await this.employee(organizationId, employeeId);
    await this.entitlements.requireActive(organizationId, COMPLIANCE_TRACKING);
    const { requirement } = await this.requirementOf(employee, target.roleId, target.requirementKey);
    return this.present(employee, target.roleId, requirement, credential);
  }

  /**
   * Examined as a candidate's; when it meets the requirement it is held from now on, with its
   * expiry (reminders, credential.expiring/expired, re-verification on schedule). One that
   * does not meet it is answered with the reason and changes nothing.
   */
  private async present(
    employee: Employee,
    roleId: string,
    requirement: CredentialRequirement,
    credential: PresentedVerifiableCredential,
  ): Promise<EmployeeCredentialPresentation> {
    const { outcome, held } = await this.credentials().check(employee.organizationId, requirement, credential);
    if (outcome.status === 'met' && !held) {
      throw invalid(
        'credential_without_expiry',
        'The credential has no validUntil: only a credential with an expiry can be held (or upload a document for review)',
        'credential',
      );
    }
    if (!held || outcome.status !== 'met') return { employeeId: employee.id, roleId, outcome, expiresAt: null, held: false };
    const stored = await this.compliance().record({
      ...held,
      organizationId: employee.organizationId,
      subject: 'employee',
      profileUserId: employee.id,
      listingId: roleId,
      requirementKey: requirement.key,
      holder: { name: employee.name, email: employee.email },
    });
    // One expiring earlier than the one already held changes nothing (compliance keeps the later one).
    return { employeeId: employee.id, roleId, outcome, expiresAt: stored.expiresAt, held: stored.sourceId === held.sourceId };
  }

  async documentsOf(organizationId: string, employeeId: string): Promise<EmployeeDocument[]> {
    await this.employee(organizationId, employeeId);
    return this.documents.list(organizationId, { employeeId });
  }

  document(organizationId: string, employeeId: string, id: string): Promise<EmployeeDocument> {
    return this.documents.get(organizationId, id, { employeeId });
  }

  documentContent(organizationId: string, employeeId: string, id: string): Promise<{ document: EmployeeDocument; content: Buffer }> {
    return this.documents.content(organizationId, id, { employeeId });
  }

  /** Approved with the expiry read on it: from now on compliance tracks it for the employee and role (reminders go to the employee). */
  async approve(organizationId: string, employeeId: string, id: string, expiresAt: Date, reviewedBy: string): Promise<EmployeeDocument> {
    const approved = await this.documents.approve(organizationId, id, expiresAt, reviewedBy, { employeeId });
    const employee = await this.employee(organizationId, employeeId);
    await this.compliance().record({
      organizationId,
      subject: 'employee',
      profileUserId: employee.id,
      listingId: approved.roleId,
      requirementKey: approved.requirementKey,
      credentialType: approved.credentialType,
      source: 'document_review',
      sourceId: approved.id,
      expiresAt,
      holder: { name: employee.name, email: employee.email },
    });
    return approved;
  }

  reject(organizationId: string, employeeId: string, id: string, reason: string, reviewedBy: string): Promise<EmployeeDocument> {
    return this.documents.reject(organizationId, id, reason, reviewedBy, { employeeId });
  }

  private async requireRoles(organizationId: string, roleIds: string[]): Promise<void> {
    const found = new Set((await this.roles.getMany(organizationId, roleIds)).map((r) => r.id));
    const unknown = roleIds.find((id) => !found.has(id));
    if (unknown) throw invalid('unknown_role', `No role "${unknown}"`, 'roles');
  }

  private async requirementOf(employee: Employee, roleId: string, requirementKey: string) {
    if (!employee.roleIds.includes(roleId)) throw invalid('role_not_held', `The employee does not hold role "${roleId}"`, 'role_id');
    const role = await this.role(employee.organizationId, roleId);
    const requirement = role.requirements.find((r) => r.key === requirementKey);
    if (!requirement) throw invalid('unknown_requirement', `The role has no requirement "${requirementKey}"`, 'requirement');
    return { role, requirement };
  }
}
