/**
 * The board application body (the JSON shape of Indeed Apply, the most widely used "apply on
 * the board" program: `job`, `applicant` with `resume`, `questions`), the board secret and the
 * receipt (zod: validation and /v1/openapi.json).
 */
import { z } from 'zod';
import { isoDateTime, nullableDateTime } from '../../../platform/http/common-schemas';
import { RESUME_CONTENT_TYPES } from '../domain/board-application';

export const BOARD_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export const boardApplicationBody = z
  .looseObject({
    id: z.string().min(1).max(255).optional().meta({ description: "The board's id of the application" }),
    job: z.looseObject({
      jobId: z.string().min(1).max(255).meta({ description: "The listing: its external id (the feed's referencenumber) or its id", example: 'eng-7' }),
    }),
    applicant: z.looseObject({
      fullName: z.string().trim().min(1).max(200).meta({ example: 'Ada Lovelace' }),
      email: z.email().max(254).meta({ example: 'ada@example.com' }),
      phoneNumber: z.string().max(40).optional(),
      coverletter: z.string().max(10_000).optional(),
      resume: z
        .looseObject({
          text: z.string().max(100_000).optional().meta({ description: 'The resume as plain text' }),
          file: z
            .strictObject({
              fileName: z.string().min(1).max(255),
              contentType: z.enum(RESUME_CONTENT_TYPES),
              data: z.string().min(1).regex(BASE64, 'base64').meta({ description: 'The file, base64 (at most 5 MiB decoded)' }),
            })
            .optional(),
        })
        .optional(),
    }),
    questions: z
      .array(
        z.strictObject({
          id: z
            .string()
            .regex(/^[A-Za-z0-9_.-]{1,64}$/)
            .meta({ description: "The question's key (the listing's question key when the board asked the listing's questions)" }),
          question: z.string().max(500).optional(),
          answer: z.union([z.string().max(5000), z.number(), z.boolean()]),
        }),
      )
      .max(50)
      .optional(),
  })
  .meta({ id: 'BoardApplication' });

export const boardReceiptSchema = z
  .object({
    received: z.literal(true),
    application_id: z.string().meta({ example: 'app_3mZ8Qk1' }),
    profile_user_id: z.string().meta({ description: "The applicant's candidate id (derived from their email): the id for data-rights requests" }),
    duplicate: z.boolean().meta({ description: 'The same person had already applied to this listing: no second application' }),
  })
  .meta({ id: 'BoardApplicationReceipt' });

export const boardSecretSchema = z
  .object({
    id: z.string().meta({ example: 'bsec_Jx8fQ2vZr1LkP0aYwE3c' }),
    object: z.literal('board_secret'),
    secret: z
      .string()
      .optional()
      .meta({ description: 'The Standard Webhooks signing secret (whsec_…), shown only in the answer that made it', example: 'whsec_…' }),
    endpoint_url: z.string().meta({ description: 'Where boards post applications; {board} is the board name recorded as the source (e.g. indeed)' }),
    previous_valid_until: nullableDateTime.meta({ description: 'Until when the former secret still verifies (after a rotation)' }),
    created_at: isoDateTime,
    rotated_at: nullableDateTime,
  })
  .meta({ id: 'BoardSecret' });
