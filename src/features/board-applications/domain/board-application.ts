/**
 * An application a job board posts (job_boards.import_applications), in the shape of the
 * "apply on the board" programs (Indeed Apply's JSON: applicant, resume, questions, job
 * reference). It enters the same table and pipeline as profile applications; what only a
 * board application has (contact details, resume, the board's questions) is kept beside it.
 */
import type { ProfileApplication } from '../../applications/domain/application';
import type { OutboxMessage } from '../../../kernel/outbox';

export const IMPORT_APPLICATIONS = 'job_boards.import_applications';

/** The largest resume file a board may send, decoded. */
export const MAX_RESUME_BYTES = 5 * 1024 * 1024;
/** The largest request: the resume in base64 (4/3) plus its text and the rest of the JSON. */
export const MAX_BOARD_BODY_BYTES = Math.ceil(MAX_RESUME_BYTES / 3) * 4 + 512 * 1024;
/** How long the former secret still verifies after a rotation, so boards can switch without losing deliveries. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;
/**
 * How long a delivery id is remembered: far beyond the five minutes a signed timestamp is
 * accepted (clock skew included), after which a replay is refused by its timestamp alone.
 */
export const DELIVERY_MEMORY_MS = 24 * 60 * 60 * 1000;

export const RESUME_CONTENT_TYPES = [
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.oasis.opendocument.text',
  'application/rtf',
  'text/plain',
] as const;

export interface BoardQuestion {
  id: string;
  question: string | null;
  answer: string | number | boolean;
}

/** The board's application once its signature verified and its body parsed. */
export interface BoardApplicationInput {
  /** The board's own id of the application, when it sends one. */
  boardApplicationId: string | null;
  /** The listing's external id (the feed's referencenumber) or our listing id. */
  jobReference: string;
  name: string;
  email: string;
  phone: string | null;
  coverLetter: string | null;
  resume: { text: string | null; file: { fileName: string; contentType: string; data: Buffer } | null } | null;
  questions: BoardQuestion[];
}

/** What is kept beside the application row. */
export interface BoardApplicationDetails {
  applicationId: string;
  organizationId: string;
  profileUserId: string;
  board: string;
  boardApplicationId: string | null;
  email: string;
  phone: string | null;
  resumeText: string | null;
  resumeFile: { fileName: string; contentType: string; data: Buffer } | null;
  questions: BoardQuestion[];
  createdAt: Date;
}

/** One delivery: its Standard Webhooks id and a hash of its exact body. */
export interface BoardDelivery {
  organizationId: string;
  deliveryId: string;
  bodySha256: string;
  receivedAt: Date;
}

export type StoreOutcome =
  | { outcome: 'created'; applicationId: string }
  /** The same person already applied to the listing (from this board or another): no second application. */
  | { outcome: 'duplicate'; applicationId: string }
  /** This delivery id was received before: `sameBody` false when the board reused the id for another body. */
  | { outcome: 'replayed'; applicationId: string; sameBody: boolean };

export interface BoardApplicationWriter {
  /**
   * In one transaction: the delivery (once per id), the application (once per person and
   * listing), its details and its pipeline-delivery message.
   */
  store(delivery: BoardDelivery, application: ProfileApplication, details: BoardApplicationDetails, messages: readonly OutboxMessage[]): Promise<StoreOutcome>;
  /** Forgets the organization's delivery ids received before `before` (their timestamps are refused anyway). */
  forgetDeliveries(organizationId: string, before: Date): Promise<void>;
}

export const BOARD_APPLICATION_WRITER = Symbol('BoardApplicationWriter');

export interface BoardSecret {
  id: string;
  organizationId: string;
  secret: string;
  previous: { secret: string; validUntil: Date } | null;
  createdAt: Date;
  rotatedAt: Date | null;
}

export interface BoardSecretStore {
  find(organizationId: string): Promise<BoardSecret | undefined>;
  /** Creates the organization's secret, or rotates it (the current one becomes the previous, valid until `previousValidUntil`). */
  put(organizationId: string, id: string, secret: string, at: Date, previousValidUntil: Date): Promise<BoardSecret>;
}

export const BOARD_SECRET_STORE = Symbol('BoardSecretStore');

/** Standard Webhooks verification over the exact bytes received; throws a DomainError with the reason's code. */
export interface BoardSignatureVerifier {
  newSecret(): string;
  /** Answers the delivery id (`webhook-id`) once one of `secrets` verifies. */
  verify(secrets: readonly string[], body: Buffer, headers: Record<string, string | undefined>): string;
}

export const BOARD_SIGNATURE_VERIFIER = Symbol('BoardSignatureVerifier');
