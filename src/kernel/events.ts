/** Hook bus port: how the domain tells the host (and, through the event log, webhooks and the events API) something happened. */
export interface PublishOptions {
  /** Names the occurrence, so a producer that runs twice (a retried job) records one event. */
  dedupeKey?: string;
}

export interface EventPublisher {
  publish(event: string, organizationId: string, payload: object, options?: PublishOptions): Promise<void>;
}

export const EVENT_PUBLISHER = Symbol('EventPublisher');
