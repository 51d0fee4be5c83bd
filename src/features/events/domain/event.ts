/**
 * An event of the organization: what the events API lists and webhooks deliver. Events
 * are recorded durably with a per-organization `sequence` (monotonic in commit order, so
 * a receiver can reorder deliveries, which are not promised in order).
 */
export interface PluginEvent {
  id: string;
  organizationId: string;
  sequence: number;
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

export interface NewEvent {
  organizationId: string;
  type: string;
  data: object;
  /** Names the occurrence (e.g. `license.activated:lic_…`): recording it again returns the first event. */
  dedupeKey?: string;
  /** Deliver to this endpoint only (the test event), instead of every endpoint that wants the type. */
  onlyEndpointId?: string;
}

export interface EventPage {
  data: PluginEvent[];
  hasMore: boolean;
}

export interface EventQuery {
  limit: number;
  startingAfter?: string;
  types?: string[];
  createdGte?: Date;
  createdLt?: Date;
}

/** The durable event log; recording also fans the event out to webhook deliveries, in one transaction. */
export interface EventLog {
  record(event: NewEvent): Promise<{ event: PluginEvent; created: boolean }>;
  find(organizationId: string, eventId: string): Promise<PluginEvent | undefined>;
  list(organizationId: string, query: EventQuery): Promise<EventPage>;
  /** Deletes (a batch of) events older than `before`, with their deliveries. Returns how many. */
  prune(before: Date): Promise<number>;
}

export const EVENT_LOG = Symbol('EventLog');
