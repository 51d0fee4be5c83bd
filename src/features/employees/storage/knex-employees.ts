/** Employees on knex (role ids as a JSON array). */
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import type { Employee, EmployeeChanges, EmployeeRepository } from '../domain/employee';

const TABLE = 'hi_employees';

interface Row {
  id: string;
  organization_id: string;
  external_id: string;
  name: string;
  email: string;
  phone: string | null;
  language: string;
  role_ids: unknown;
  created_at: Date;
  updated_at: Date;
}

const fromRow = (r: Row): Employee => ({
  id: r.id,
  organizationId: r.organization_id,
  externalId: r.external_id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  language: r.language,
  roleIds: fromJson<string[]>(r.role_ids),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export class KnexEmployees implements EmployeeRepository {
  constructor(private readonly db: Database) {}

  async insert(e: Employee): Promise<boolean> {
    const inserted = await this.db(TABLE)
      .insert({
        id: e.id,
        organization_id: e.organizationId,
        external_id: e.externalId,
        name: e.name,
        email: e.email,
        phone: e.phone,
        language: e.language,
        role_ids: JSON.stringify(e.roleIds),
        created_at: e.createdAt,
        updated_at: e.updatedAt,
      })
      .onConflict(['organization_id', 'external_id'])
      .ignore()
      .returning('id');
    return inserted.length > 0;
  }

  async get(organizationId: string, id: string): Promise<Employee | undefined> {
    const row = await this.db<Row>(TABLE).where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async list(organizationId: string, q: { limit: number; startingAfter?: string; roleId?: string }): Promise<Employee[]> {
    const query = this.db<Row>(TABLE).where({ organization_id: organizationId }).orderBy('id').limit(q.limit);
    if (q.startingAfter) query.where('id', '>', q.startingAfter);
    if (q.roleId) query.whereRaw('role_ids @> ?::jsonb', [JSON.stringify([q.roleId])]);
    return (await query).map(fromRow);
  }

  async update(organizationId: string, id: string, c: EmployeeChanges, at: Date): Promise<Employee | undefined> {
    const changes: Record<string, unknown> = { updated_at: at };
    if (c.name !== undefined) changes.name = c.name;
    if (c.email !== undefined) changes.email = c.email;
    if (c.phone !== undefined) changes.phone = c.phone;
    if (c.language !== undefined) changes.language = c.language;
    if (c.roleIds !== undefined) changes.role_ids = JSON.stringify(c.roleIds);
    const [row] = await this.db<Row>(TABLE).where({ organization_id: organizationId, id }).update(changes).returning('*');
    return row ? fromRow(row as Row) : undefined;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.db(TABLE).where({ organization_id: organizationId, id }).delete()) > 0;
  }
}
