import type { CandidateDataRegistration, CandidateDataStore, CandidateFreeTable } from './candidate-data';

/** What the registry knows about a list of tables (a migrated database's). */
export interface RegistryCoverage {
  /** Tables neither registered by a store nor declared free of candidate data. */
  unregistered: string[];
  /** Tables a store or declaration names that the database does not have (a typo, a dropped table). */
  unknown: string[];
  /** Tables both registered by a store and declared free (a contradiction). */
  contradictory: string[];
}

/** All registrations, checked once: store names and table claims are unique. */
export class CandidateDataRegistry {
  readonly stores: readonly CandidateDataStore[];
  readonly freeTables: readonly CandidateFreeTable[];

  constructor(registrations: readonly CandidateDataRegistration[]) {
    this.stores = registrations.flatMap((r) => (r.kind === 'store' ? [r.store] : []));
    this.freeTables = registrations.flatMap((r) => (r.kind === 'free' ? [r.table] : []));
    const names = new Set<string>();
    for (const store of this.stores) {
      if (!/^[a-z][a-z0-9_]*$/.test(store.name)) throw new Error(`Candidate data store name "${store.name}" is not snake_case`);
      if (names.has(store.name)) throw new Error(`Candidate data store "${store.name}" is registered twice`);
      names.add(store.name);
    }
    const free = new Set<string>();
    for (const { table, reason } of this.freeTables) {
      if (free.has(table)) throw new Error(`Table ${table} is declared free of candidate data twice`);
      if (reason.trim().length < 10) throw new Error(`Table ${table} is declared free of candidate data without a reason`);
      free.add(table);
    }
  }

  storeNames(): string[] {
    return this.stores.map((s) => s.name);
  }

  coverage(tables: readonly string[]): RegistryCoverage {
    const present = new Set(tables);
    const stored = new Set(this.stores.flatMap((s) => s.tables));
    const free = new Set(this.freeTables.map((t) => t.table));
    return {
      unregistered: tables.filter((t) => !stored.has(t) && !free.has(t)).sort(),
      unknown: [...new Set([...stored, ...free])].filter((t) => !present.has(t)).sort(),
      contradictory: [...stored].filter((t) => free.has(t)).sort(),
    };
  }
}
