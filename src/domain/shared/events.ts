/** Hook bus port: how the domain tells the host something happened. */
export interface EventPublisher {
  publish(event: string, organizationId: string, payload: object): Promise<void>;
}

export const EVENT_PUBLISHER = Symbol('EventPublisher');
