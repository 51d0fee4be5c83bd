/** Roles on knex (requirements as JSON). */
import type { Database } from '../../../platform/database/database';
import { fromJson } from '../../../platform/database/json-column';
import type { CredentialRequirement } from '../../listings/domain/credential-requirements';
import type { Role, RoleRepository } from '../domain/role';

const TABLE = 'hi_roles';

interface Row {
  id: string;
  organization_id: string;
  name: string;
  requirements: unknown;
  created_at: Date;
  updated_at: Date;
}

const fromRow = (r: Row): Role => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  requirements: fromJson<CredentialRequirement[]>(r.requirements),
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export class KnexRoles implements RoleRepository {
  constructor(private readonly db: Database) {}

  async insert(role: Role): Promise<void> {
    await this.db(TABLE).insert({
      id: role.id,
      organization_id: role.organizationId,
      name: role.name,
      requirements: JSON.stringify(role.requirements),
      created_at: role.createdAt,
      updated_at: role.updatedAt,
    });
  }

  async get(organizationId: string, id: string): Promise<Role | undefined> {
    const row = await this.db<Row>(TABLE).where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async getMany(organizationId: string, ids: string[]): Promise<Role[]> {
    if (!ids.length) return [];
    return (await this.db<Row>(TABLE).where({ organization_id: organizationId }).whereIn('id', ids).orderBy('id')).map(fromRow);
  }

  async list(organizationId: string, limit: number, startingAfter?: string): Promise<Role[]> {
    const query = this.db<Row>(TABLE).where({ organization_id: organizationId }).orderBy('id').limit(limit);
    if (startingAfter) query.where('id', '>', startingAfter);
    return (await query).map(fromRow);
  }

  async update(organizationId: string, id: string, changes: Pick<Role, 'name' | 'requirements' | 'updatedAt'>): Promise<Role | undefined> {
    const [row] = await this.db<Row>(TABLE)
      .where({ organization_id: organizationId, id })
      .update({ name: changes.name, requirements: JSON.stringify(changes.requirements), updated_at: changes.updatedAt })
      .returning('*');
    return row ? fromRow(row as Row) : undefined;
  }

  async delete(organizationId: string, id: string): Promise<boolean> {
    return (await this.db(TABLE).where({ organization_id: organizationId, id }).delete()) > 0;
  }
}
