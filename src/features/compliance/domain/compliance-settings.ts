/** Each organization's reminder schedule (none stored: the default). */
import type { ComplianceSettings } from './reminder-schedule';

export interface ComplianceSettingsStore {
  get(organizationId: string): Promise<ComplianceSettings | undefined>;
  getMany(organizationIds: string[]): Promise<Map<string, ComplianceSettings>>;
  put(organizationId: string, settings: ComplianceSettings, now: Date): Promise<void>;
}

export const COMPLIANCE_SETTINGS_STORE = Symbol('ComplianceSettingsStore');
