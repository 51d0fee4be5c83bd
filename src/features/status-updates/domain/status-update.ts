/**
 * One status update: the message a candidate gets when the host moves their application
 * to another stage (`application.stage_changed`). One row per host change id, so a hook
 * the host sends twice sends one message. An unsubscribe is per organization, address and
 * topic; an unsubscribed candidate's later changes are recorded as `suppressed`.
 */
import { z } from 'zod';
import { hostId, person } from '../../hooks/domain/payloads';

export const STATUS_UPDATE_ACTION = 'notifications.status_update';
export const STATUS_UPDATES_TOPIC = 'status_updates';

export const stageChanged = z.object({
  /** The host's id of this change: the same id again is the same change. */
  change_id: hostId,
  application_id: hostId,
  candidate: person.extend({ email: z.email().max(320) }),
  /** The stage as the candidate should read it ("Interview", "Offer"). */
  stage: z.string().trim().min(1).max(200),
  job_title: z.string().trim().min(1).max(200).optional(),
  /** Shown in the footer ("you applied to …"); default: the organization's name. */
  organization_name: z.string().trim().min(1).max(200).optional(),
  /** A short note from the recruiter, shown as written. */
  note: z.string().trim().min(1).max(2000).optional(),
});
export type StageChanged = z.infer<typeof stageChanged>;

export type StatusUpdateStatus = 'pending' | 'sent' | 'failed' | 'suppressed';

export interface StatusUpdate {
  id: string;
  organizationId: string;
  changeId: string;
  applicationId: string;
  recipientName: string;
  recipientEmail: string;
  language: string;
  stage: string;
  status: StatusUpdateStatus;
  reason: string | null;
  runId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface StatusUpdateRepository {
  /** Inserts the update unless (organization, change) exists; answers the stored row either way. */
  claim(update: StatusUpdate): Promise<StatusUpdate>;
  get(organizationId: string, id: string): Promise<StatusUpdate | undefined>;
  settle(id: string, change: { status: Exclude<StatusUpdateStatus, 'pending'>; reason: string | null; runId?: string | null; at: Date }): Promise<void>;
  isUnsubscribed(organizationId: string, email: string, topic: string): Promise<boolean>;
  /** Idempotent: answers false when the address was already unsubscribed. */
  unsubscribe(organizationId: string, email: string, topic: string, sourceId: string, at: Date): Promise<boolean>;
}

export const STATUS_UPDATE_REPOSITORY = Symbol('StatusUpdateRepository');
export const STATUS_UPDATE_OPTIONS = Symbol('StatusUpdateOptions');

export interface StatusUpdateOptions {
  /** Public base URL of the service: the unsubscribe link points there. */
  baseUrl: string;
}
