/** Action run resources. */
import { z } from 'zod';
import { isoDateTime, listOf, nullableDateTime } from '../../../platform/http/common-schemas';

export const RUN_STATUSES = ['running', 'retrying', 'succeeded', 'failed'] as const;

export const actionRunSchema = z
  .object({
    id: z.string().meta({ example: 'run_Q2vZr1LkP0aYwE3cJx8f' }),
    object: z.literal('action_run'),
    action: z.string().meta({ example: 'notifications.interview_reminder' }),
    hook: z.string().nullable().meta({ description: 'The hook whose handler performed the step', example: 'interview.scheduled' }),
    step: z.string().meta({ description: 'The port used: email, sms, video_meetings, hris, …', example: 'email' }),
    connector: z.string().meta({ description: 'What performed it: smtp, host, sandbox, none (nothing could)', example: 'smtp' }),
    connection_id: z.string().nullable(),
    livemode: z.boolean().meta({ description: 'false: a test-mode sandbox answered, nothing left the machine' }),
    status: z.enum(RUN_STATUSES).meta({ description: 'succeeded only on the counterpart’s acknowledgment' }),
    reference: z.string().nullable().meta({ description: "The counterpart's reference (SMTP queue id, message SID)", example: '4Xk2mPq7' }),
    error: z.object({ code: z.string(), message: z.string().nullable() }).nullable(),
    delivery_status: z
      .string()
      .nullable()
      .meta({ description: 'SMS: what the counterpart reported since (queued, sent, delivered, undelivered, failed); null for other steps' }),
    attempts: z.array(
      z.object({
        number: z.number().int(),
        started_at: isoDateTime,
        ended_at: nullableDateTime,
        outcome: z.enum(['pending', 'succeeded', 'transient_error', 'permanent_error']),
        error_code: z.string().nullable(),
      }),
    ),
    created_at: isoDateTime,
    completed_at: nullableDateTime,
  })
  .meta({ id: 'ActionRun' });

export const actionRunListSchema = listOf(actionRunSchema);
