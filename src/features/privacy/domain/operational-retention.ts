/**
 * Operational records (action runs, …) hold no candidate data but grow without end: each
 * feature that keeps such a table registers a pruner, and the daily retention pass asks each
 * to delete what its deployment setting lets go, in bounded batches.
 */
export interface OperationalRecordPruner {
  /** The report's key, e.g. `action_runs`. */
  readonly name: string;
  /** Deletes what is due at `asOf`; answers how many rows went. */
  prune(asOf: Date): Promise<number>;
}

export const OPERATIONAL_RECORD_PRUNERS = Symbol('OperationalRecordPruners');

/** Every registered pruner (none registered: none), resolved when the pass runs. */
export type OperationalRecordPruners = () => OperationalRecordPruner[];

export const OPERATIONAL_RETENTION = Symbol('OperationalRetention');
