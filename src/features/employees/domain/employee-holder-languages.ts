/**
 * Employees' credential reminders in their language: a credential held for an employee
 * names them (its profile user id is the employee's id), and the employee's stored
 * `language` answers. A removed employee (or a candidate's credential) has none.
 */
import type { HeldCredential } from '../../compliance/domain/held-credential';
import type { HolderLanguages } from '../../compliance/domain/holder-language';
import type { EmployeeRepository } from './employee';

export class EmployeeHolderLanguages implements HolderLanguages {
  constructor(private readonly employees: EmployeeRepository) {}

  async languageOf(credential: HeldCredential): Promise<string | undefined> {
    if (credential.subject !== 'employee') return undefined;
    return (await this.employees.get(credential.organizationId, credential.profileUserId))?.language;
  }
}
