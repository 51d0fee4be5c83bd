/**
 * The host's time-off hooks, gated by `scheduling.availability_sync`: created and updated
 * store (or replace) the time off and write it into the person's calendars; cancelled frees
 * the slots and removes the event. A payload that does not parse is refused `invalid_payload`.
 */
import { inject } from 'tsyringe';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from '../../hooks/domain/hook-handler';
import { timeOffCancelled, timeOffPayload } from './time-off';
import { TimeOffService } from './time-off-service';
import { AVAILABILITY_SYNC_ACTION } from './tracked-calendar';

@HookHandlerFor({
  name: 'time-off-created',
  hook: 'time_off.created',
  action: AVAILABILITY_SYNC_ACTION,
  steps: ['calendar'],
  description: "Stores the time off (it blocks interview slots) and writes it into the person's CalDAV calendar as an event",
})
export class TimeOffCreatedHandler implements GatedHookHandler {
  constructor(@inject(TimeOffService) private readonly timeOff: TimeOffService) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    return this.timeOff.record(organizationId, parsePayload(timeOffPayload, payload));
  }
}

@HookHandlerFor({
  name: 'time-off-updated',
  hook: 'time_off.updated',
  action: AVAILABILITY_SYNC_ACTION,
  steps: ['calendar'],
  description: 'Replaces the time off and its calendar event (same UID, SEQUENCE + 1)',
})
export class TimeOffUpdatedHandler implements GatedHookHandler {
  constructor(@inject(TimeOffService) private readonly timeOff: TimeOffService) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    return this.timeOff.record(organizationId, parsePayload(timeOffPayload, payload));
  }
}

@HookHandlerFor({
  name: 'time-off-cancelled',
  hook: 'time_off.cancelled',
  action: AVAILABILITY_SYNC_ACTION,
  steps: ['calendar'],
  description: "Frees the slots the time off blocked and deletes its event from the person's calendar",
})
export class TimeOffCancelledHandler implements GatedHookHandler {
  constructor(@inject(TimeOffService) private readonly timeOff: TimeOffService) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    return this.timeOff.cancel(organizationId, parsePayload(timeOffCancelled, payload).time_off_id);
  }
}
