/**
 * Mounted at /v1/board-applications (job_boards.import_applications): the organization's
 * signing secret (POST makes or rotates it and shows it once; GET says when), and the
 * endpoint boards post applications to (public: the Standard Webhooks signature over the
 * exact bytes is the authentication; verified before the body is read as an application).
 */
import { invalid } from '../../../kernel/errors';
import type { RawBodyCarrier } from '../../../platform/http/body';
import type { Principal } from '../../../platform/http/principal';
import { defineRoute, reply, z, type RouteDefinition } from '../../../platform/http/route';
import type { BoardApplicationInput, BoardSecret } from '../domain/board-application';
import type { BoardApplications } from '../domain/board-applications';
import { BOARD_NAME, boardApplicationBody, boardReceiptSchema, boardSecretSchema } from './board-application-schemas';

export const RECEIVE_OPERATION = 'receiveBoardApplication';

const orgId = (principal: Principal) => (principal as { organizationId: string }).organizationId;

function toInput(body: z.output<typeof boardApplicationBody>): BoardApplicationInput {
  const file = body.applicant.resume?.file;
  return {
    boardApplicationId: body.id ?? null,
    jobReference: body.job.jobId,
    name: body.applicant.fullName,
    email: body.applicant.email,
    phone: body.applicant.phoneNumber ?? null,
    coverLetter: body.applicant.coverletter ?? null,
    resume: body.applicant.resume
      ? {
          text: body.applicant.resume.text ?? null,
          file: file ? { fileName: file.fileName, contentType: file.contentType, data: Buffer.from(file.data, 'base64') } : null,
        }
      : null,
    questions: (body.questions ?? []).map((q) => ({ id: q.id, question: q.question ?? null, answer: q.answer })),
  };
}

/** The body, read only once the signature verified: the first problem names its path. */
function parseApplication(raw: Buffer): BoardApplicationInput {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalid('invalid_json', 'The body is not JSON');
  }
  const parsed = boardApplicationBody.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const param = issue.path.join('.');
    throw invalid('parameter_invalid', `${param || 'body'}: ${issue.message}`, param || undefined);
  }
  return toInput(parsed.data);
}

export function boardApplicationRoutes(boards: BoardApplications, endpointUrl: (organizationId: string) => string): RouteDefinition<any, any, any>[] {
  const secretView = (s: BoardSecret, shown: boolean): z.output<typeof boardSecretSchema> => ({
    id: s.id,
    object: 'board_secret',
    ...(shown ? { secret: s.secret } : {}),
    endpoint_url: endpointUrl(s.organizationId),
    previous_valid_until: s.previous?.validUntil.toISOString() ?? null,
    created_at: s.createdAt.toISOString(),
    rotated_at: s.rotatedAt?.toISOString() ?? null,
  });
  return [
    defineRoute({
      method: 'post',
      path: '/secret',
      operationId: 'rotateBoardSecret',
      summary: 'Makes the signing secret boards sign applications with, or rotates it (the former one verifies 24 more hours); shown only in this answer',
      tags: ['board-applications'],
      auth: ['organization'],
      status: 201,
      response: boardSecretSchema,
      handler: async ({ principal }) => reply(201, secretView(await boards.rotateSecret(orgId(principal)), true)),
    }),
    defineRoute({
      method: 'get',
      path: '/secret',
      operationId: 'getBoardSecret',
      summary: 'When the signing secret was made or rotated, and the endpoint boards post to (never the secret)',
      tags: ['board-applications'],
      auth: ['organization'],
      response: boardSecretSchema,
      // No secret made yet: 404 resource_missing.
      errors: [404],
      handler: async ({ principal }) => secretView(await boards.secretInfo(orgId(principal)), false),
    }),
    defineRoute({
      method: 'post',
      path: '/:organization_id/:board',
      operationId: RECEIVE_OPERATION,
      summary:
        "A board posts an application (Indeed Apply's JSON), signed per Standard Webhooks with the organization's secret: 201 once, 200 for a replayed delivery id or the same person again; it enters the pipeline as a profile application does, with the board as its source",
      tags: ['board-applications'],
      auth: [],
      params: z.object({ organization_id: z.string().max(100), board: z.string().regex(BOARD_NAME, 'a board name: a-z, 0-9 and -, at most 40') }),
      // The envelope only: the signature over the raw bytes decides first, then the body is read
      // as an application (docs/job-import.md, Board applications, gives its fields).
      body: z.looseObject({
        id: z.string().max(255).optional(),
        job: z.looseObject({ jobId: z.string().max(255).optional() }).optional(),
        applicant: z.looseObject({ fullName: z.string().max(200).optional(), email: z.string().max(254).optional() }).optional(),
        questions: z.array(z.unknown()).max(50).optional(),
      }),
      status: 201,
      response: boardReceiptSchema,
      alsoAnswers: [200],
      // webhook_signature_missing / _invalid, webhook_timestamp_out_of_range (400); license_required (403);
      // unknown listing (404); webhook_id_reused (409); listing_closed (410); resume_too_large (413).
      errors: [403, 404, 409, 410, 413],
      handler: async ({ params, req }) => {
        const raw = (req as unknown as RawBodyCarrier).rawBody ?? Buffer.alloc(0);
        const headers = {
          'webhook-id': req.get('webhook-id'),
          'webhook-timestamp': req.get('webhook-timestamp'),
          'webhook-signature': req.get('webhook-signature'),
        };
        const deliveryId = await boards.verify(params.organization_id, raw, headers);
        const received = await boards.receive(params.organization_id, params.board, deliveryId, raw, parseApplication(raw));
        return reply(received.created ? 201 : 200, {
          received: true as const,
          application_id: received.applicationId,
          profile_user_id: received.profileUserId,
          duplicate: received.duplicate,
        });
      },
    }),
  ];
}
