/**
 * Handlers that do their work at once through a connector: a meeting link for a
 * scheduled interview, a hired candidate synced to the HRIS (offers sent for signature are
 * the esign feature's). Each passes an idempotency key derived from the host's ids, so a hook
 * fired twice creates one meeting, one employee; each tells the host what it created
 * with an event on the hook bus.
 */
import { inject } from 'tsyringe';
import type { z } from 'zod';
import { EVENT_PUBLISHER, type EventPublisher } from '../../../kernel/events';
import { LOGGER, type Logger } from '../../../kernel/logger';
import { HRIS_CONNECTOR, VIDEO_MEETING_CONNECTOR, type HrisConnector, type VideoMeetingConnector } from './connectors';
import { HookHandlerFor, parsePayload, type GatedHookHandler, type HookHandlerReport } from './hook-handler';
import { candidateHired, interviewScheduled } from './payloads';
import { reportDigest, SYNC_LEDGER, type SyncLedger } from './sync-ledger';
import { CLOCK, type Clock } from '../../../kernel/clock';

/** `dedupeKey` from the connector's idempotency key: a hook fired twice records one event. */
export async function announce(
  events: EventPublisher,
  logger: Logger,
  event: string,
  organizationId: string,
  payload: object,
  dedupeKey: string,
): Promise<void> {
  try {
    await events.publish(event, organizationId, payload, { dedupeKey: `${event}:${dedupeKey}` });
  } catch (error) {
    logger.warn({ event, organizationId, err: (error as Error).message }, 'publishing a hook result event failed');
  }
}

@HookHandlerFor({
  name: 'video-meeting-link',
  hook: 'interview.scheduled',
  action: 'video_meetings.create_meeting_link',
  steps: ['video_meetings'],
  description: 'Creates a video meeting for the interview and publishes interview.meeting_link_created with its join URL',
})
export class VideoMeetingLinkHandler implements GatedHookHandler {
  constructor(
    @inject(VIDEO_MEETING_CONNECTOR) private readonly meetings: VideoMeetingConnector,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const interview = parsePayload(interviewScheduled, payload);
    const meeting = await this.meetings.createMeeting({
      organizationId,
      actionKey: 'video_meetings.create_meeting_link',
      idempotencyKey: `meeting-${organizationId}-${interview.interview_id}`,
      title: interview.title,
      startsAt: new Date(interview.starts_at),
      durationMinutes: interview.duration_minutes,
      attendees: [
        { name: interview.candidate.name, ...(interview.candidate.email ? { email: interview.candidate.email } : {}), role: 'guest' as const },
        ...interview.interviewers.map((p) => ({ name: p.name, ...(p.email ? { email: p.email } : {}), role: 'host' as const })),
      ],
    });
    const result = {
      interview_id: interview.interview_id,
      meeting_id: meeting.meetingId,
      join_url: meeting.joinUrl,
      ...(meeting.participants
        ? { participants: meeting.participants.map((p) => ({ name: p.name, email: p.email ?? null, role: p.role, join_url: p.joinUrl })) }
        : {}),
    };
    await announce(this.events, this.logger, 'interview.meeting_link_created', organizationId, result, `${organizationId}-${interview.interview_id}`);
    return result;
  }
}

/** The employee a hire (or a later change of it) describes: what the HRIS port receives besides keys. */
export const employeeFields = (hire: z.output<typeof candidateHired>) => ({
  candidateId: hire.candidate_id,
  name: hire.candidate.name,
  email: hire.candidate.email,
  jobTitle: hire.job_title ?? null,
  startDate: hire.start_date ?? null,
  department: hire.department ?? null,
});

@HookHandlerFor({
  name: 'hris-employee-sync',
  hook: 'candidate.hired',
  action: 'hris.employee_sync',
  steps: ['hris'],
  description: 'Creates the hired candidate as an employee in the HRIS and publishes employee.synced',
})
export class EmployeeSyncHandler implements GatedHookHandler {
  constructor(
    @inject(HRIS_CONNECTOR) private readonly hris: HrisConnector,
    @inject(EVENT_PUBLISHER) private readonly events: EventPublisher,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(SYNC_LEDGER) private readonly ledger: SyncLedger,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  async handle(organizationId: string, payload: Record<string, unknown>): Promise<HookHandlerReport> {
    const hire = parsePayload(candidateHired, payload);
    const fields = employeeFields(hire);
    // On the sync ledger like changes and terminations: a rehire after a termination is a new run (it re-activates).
    const digest = reportDigest({ status: 'active', ...fields });
    const revision = await this.ledger.advance(
      { organizationId, sink: 'hris', candidateId: hire.candidate_id, email: hire.candidate.email, digest },
      this.clock.now(),
    );
    const key = `${organizationId}-${hire.candidate_id}-r${revision}-${digest}`;
    const employee = await this.hris.syncEmployee({ organizationId, actionKey: 'hris.employee_sync', idempotencyKey: `employee-${key}`, ...fields });
    const result = { candidate_id: hire.candidate_id, employee_id: employee.employeeId };
    await announce(this.events, this.logger, 'employee.synced', organizationId, result, key);
    return result;
  }
}
