/**
 * An employee the host names (its HRIS id, name, contact, language) and the roles they hold.
 * Employees have no account here: they are reached by email, and act through signed links.
 */
export interface Employee {
  id: string;
  organizationId: string;
  /** The host's own id for them, unique in the organization. */
  externalId: string;
  name: string;
  email: string;
  phone: string | null;
  language: string;
  roleIds: string[];
  createdAt: Date;
  updatedAt: Date;
}

export type EmployeeChanges = Partial<Pick<Employee, 'name' | 'email' | 'phone' | 'language' | 'roleIds'>>;

export interface EmployeeRepository {
  /** false when the external id is taken in the organization. */
  insert(employee: Employee): Promise<boolean>;
  get(organizationId: string, id: string): Promise<Employee | undefined>;
  list(organizationId: string, query: { limit: number; startingAfter?: string; roleId?: string }): Promise<Employee[]>;
  update(organizationId: string, id: string, changes: EmployeeChanges, at: Date): Promise<Employee | undefined>;
  delete(organizationId: string, id: string): Promise<boolean>;
}

export const EMPLOYEE_REPOSITORY = Symbol('EmployeeRepository');
