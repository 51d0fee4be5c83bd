/**
 * The HRIS port over SCIM 2.0 (RFC 7643 User + the enterprise extension, RFC 7644 calls).
 * A hire is `POST /Users` with `externalId` = the host's candidate id; a `409 uniqueness`
 * means the person is already there (an earlier attempt whose answer was lost, a rehire):
 * we find them by `externalId` and PATCH instead, so a person is never created twice.
 * Changes are PATCHes of the same attributes; a termination is `active:false`.
 */
import type { ConnectorNetwork } from '../../features/connections/domain/connection-destinations';
import type { EmployeeDeactivation, EmployeeRecord, HrisConnector, SyncedEmployee } from '../../features/hooks/domain/connectors';
import { rejected, scimError, scimRequest } from './scim-http';
import type { ScimCredentials, ScimSettings } from './settings';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** SCIM's userType values (RFC 7643 §4.1.1 names Employee, Contractor, …; Volunteer is ours, documented). */
const USER_TYPES = { employee: 'Employee', volunteer: 'Volunteer' } as const;

/** The attributes we own on the directory's record; everything else there is left alone. */
export function scimAttributes(r: EmployeeRecord) {
  const parts = r.name.trim().split(/\s+/);
  const familyName = parts.length > 1 ? parts.pop() : undefined;
  return {
    userName: r.email,
    name: { formatted: r.name, givenName: parts.join(' '), ...(familyName ? { familyName } : {}) },
    displayName: r.name,
    emails: [{ value: r.email, type: 'work', primary: true }],
    ...(r.jobTitle ? { title: r.jobTitle } : {}),
    userType: USER_TYPES[r.workerType ?? 'employee'],
    active: true,
    [ENTERPRISE_SCHEMA]: { ...(r.department ? { department: r.department } : {}) },
  };
}

const quoted = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export class ScimHrisConnector implements HrisConnector {
  constructor(
    readonly settings: ScimSettings,
    readonly credentials: ScimCredentials,
    readonly network?: ConnectorNetwork,
  ) {}

  async syncEmployee(r: EmployeeRecord): Promise<SyncedEmployee> {
    const attributes = scimAttributes(r);
    const existing = await this.findByExternalId(r.candidateId);
    if (existing) return this.patch(existing, { op: 'replace', value: attributes }, r.idempotencyKey);
    const created = await scimRequest(this, 'POST', '/Users', {
      schemas: [USER_SCHEMA, ENTERPRISE_SCHEMA],
      externalId: r.candidateId,
      ...attributes,
    });
    if (created.status === 201 || created.status === 200) return this.answer(created.body, r.idempotencyKey);
    if (created.status === 409) {
      // Created meanwhile (a lost answer, a concurrent hook): the lookup decides; never a second POST.
      const raced = await this.findByExternalId(r.candidateId);
      if (raced) return this.patch(raced, { op: 'replace', value: attributes }, r.idempotencyKey);
      throw scimError('employee_conflict', 'The directory already holds another person with this user name (email); nothing was created', false);
    }
    throw rejected(created, 'the new user');
  }

  async deactivateEmployee(r: EmployeeDeactivation): Promise<SyncedEmployee> {
    const existing = await this.findByExternalId(r.candidateId);
    if (!existing) throw scimError('employee_not_found', 'The directory holds no user with this externalId; nothing to deactivate', false);
    return this.patch(existing, { op: 'replace', path: 'active', value: false }, r.idempotencyKey);
  }

  private async findByExternalId(externalId: string): Promise<string | undefined> {
    const filter = encodeURIComponent(`externalId eq ${quoted(externalId)}`);
    const found = await scimRequest(this, 'GET', `/Users?filter=${filter}&attributes=id,externalId`);
    if (found.status !== 200) throw rejected(found, 'the externalId lookup');
    const body = found.body ?? {};
    const resources = body.Resources ?? [];
    if (!Array.isArray(body.schemas) || !body.schemas.includes(LIST_RESPONSE) || !Array.isArray(resources))
      throw scimError('counterpart_invalid_response', 'The SCIM server answered the lookup with something other than a ListResponse', false);
    const matches = resources.filter((u: { externalId?: unknown }) => u && u.externalId === externalId);
    if (matches.length > 1) throw scimError('employee_conflict', `The directory holds ${matches.length} users with this externalId; resolve it there`, false);
    const id = (matches[0] as { id?: unknown } | undefined)?.id;
    if (matches.length === 1 && typeof id !== 'string') throw scimError('counterpart_invalid_response', 'The SCIM server answered a user without an id', false);
    return id as string | undefined;
  }

  private async patch(id: string, operation: object, idempotencyKey: string): Promise<SyncedEmployee> {
    const patched = await scimRequest(this, 'PATCH', `/Users/${encodeURIComponent(id)}`, {
      schemas: [PATCH_OP],
      Operations: [operation],
    });
    if (patched.status === 204) return { deliveryId: idempotencyKey, employeeId: id, reference: id };
    if (patched.status === 200) return this.answer(patched.body, idempotencyKey);
    throw rejected(patched, 'the update');
  }

  private answer(body: Record<string, unknown> | undefined, idempotencyKey: string): SyncedEmployee {
    const id = body?.id;
    if (typeof id !== 'string' || id.length === 0 || id.length > 255)
      throw scimError('counterpart_invalid_response', 'The SCIM server answered without the user id', false);
    return { deliveryId: idempotencyKey, employeeId: id, reference: id };
  }
}
