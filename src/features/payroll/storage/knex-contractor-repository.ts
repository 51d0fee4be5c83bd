/** Contractors on knex: one row per organization and worker id; saving the same worker again replaces the details. */
import type { Database } from '../../../platform/database/database';
import type { Contractor, ContractorRepository, TinType } from '../domain/contractor';

interface ContractorRow {
  id: string;
  organization_id: string;
  worker_id: string;
  email: string;
  legal_name: string;
  tin_type: TinType;
  tin_last4: string;
  address_line1: string;
  address_line2: string | null;
  city: string;
  region: string;
  postal_code: string;
  country: string;
  created_at: Date;
  updated_at: Date;
}

const TABLE = 'hi_payroll_contractors';

const fromRow = (r: ContractorRow): Contractor => ({
  id: r.id,
  organizationId: r.organization_id,
  workerId: r.worker_id,
  email: r.email,
  legalName: r.legal_name,
  tinType: r.tin_type,
  tinLast4: r.tin_last4,
  addressLine1: r.address_line1,
  addressLine2: r.address_line2,
  city: r.city,
  region: r.region,
  postalCode: r.postal_code,
  country: r.country,
  createdAt: new Date(r.created_at),
  updatedAt: new Date(r.updated_at),
});

export class KnexContractorRepository implements ContractorRepository {
  constructor(private readonly db: Database) {}

  async upsert(c: Contractor): Promise<{ contractor: Contractor; created: boolean }> {
    const details = {
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
    };
    const [inserted] = (await this.db(TABLE)
      .insert({ id: c.id, organization_id: c.organizationId, worker_id: c.workerId, ...details, created_at: c.createdAt, updated_at: c.updatedAt })
      .onConflict(['organization_id', 'worker_id'])
      .ignore()
      .returning('*')) as ContractorRow[];
    if (inserted) return { contractor: fromRow(inserted), created: true };
    const [replaced] = (await this.db(TABLE)
      .where({ organization_id: c.organizationId, worker_id: c.workerId })
      .update({ ...details, updated_at: c.updatedAt })
      .returning('*')) as ContractorRow[];
    return { contractor: fromRow(replaced!), created: false };
  }

  async get(organizationId: string, id: string): Promise<Contractor | undefined> {
    const row = await this.db<ContractorRow>(TABLE).where({ organization_id: organizationId, id }).first();
    return row ? fromRow(row) : undefined;
  }

  async all(organizationId: string): Promise<Contractor[]> {
    return (await this.db<ContractorRow>(TABLE).where({ organization_id: organizationId }).orderBy('worker_id')).map(fromRow);
  }

  async organizations(): Promise<string[]> {
    return (await this.db(TABLE).distinct('organization_id').orderBy('organization_id')).map((r: { organization_id: string }) => r.organization_id);
  }
}
